import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Boost } from '../../../api/types';
import { FakeApi, apiError, page } from '../../../test/fake-api';
import { incentiveAction, sessionFor } from '../../../test/fixtures';
import { renderApp } from '../../../test/render-app';
import { NEW_BOOST, boostText, createBoostRequest, endsAtRule, instantOfPicked, multiplierRule, multiplierText, scopeText } from './boost-request';

const boost = (overrides: Partial<Boost> = {}): Boost => ({
  id: 'bst_1',
  name: 'Double weekend',
  multiplier: 2,
  actionKeys: [],
  userIds: [],
  startsAt: '2030-03-02T00:00:00.000Z',
  endsAt: '2030-03-04T00:00:00.000Z',
  state: 'SCHEDULED',
  createdAt: '2026-11-01T10:00:00.000Z',
  ...overrides,
});

function boostsApi() {
  return new FakeApi()
    .on('GET', '/api/v1/incentives/actions', { body: { actions: [incentiveAction({ key: 'login', name: 'Log in' }), incentiveAction()], pagination: page(2) } })
    .on('GET', '/api/v1/incentives/boosts', {
      body: {
        boosts: [
          boost(),
          boost({ id: 'bst_2', name: 'Launch week', multiplier: 1.5, actionKeys: ['first_purchase'], userIds: ['ana', 'bob'], state: 'ACTIVE', startsAt: '2026-11-20T00:00:00.000Z' }),
          boost({ id: 'bst_3', name: 'Old promo', multiplier: 3, state: 'ENDED', startsAt: '2026-01-01T00:00:00.000Z', endsAt: '2026-01-02T00:00:00.000Z' }),
        ],
        pagination: page(3),
      },
    });
}

describe('boosts in the forms', () => {
  it('say a boost in words: multiplier, scope, as a ledger entry names it', () => {
    expect([multiplierText(2), multiplierText(1.5), multiplierText(1.25)]).toEqual(['×2', '×1.5', '×1.25']);
    expect(boostText({ name: 'Double weekend', multiplier: 2 })).toBe('×2 Double weekend');
    expect(scopeText({ actionKeys: [], userIds: [] })).toBe('every action · every user');
    expect(scopeText({ actionKeys: ['login'], userIds: ['a', 'b', 'c', 'd'] })).toBe('action login · 4 users (a, b, c, …)');
  });

  it('send the window as instants, empty lists left out and user ids each once', () => {
    const values = { ...NEW_BOOST, name: ' Double ', multiplier: '1.5', userIds: [' ana', 'ana', 'bob'], startsAt: '2030-03-01 09:00:00', endsAt: '2030-03-02 09:00' };
    expect(createBoostRequest(values)).toEqual({
      name: 'Double',
      multiplier: 1.5,
      userIds: ['ana', 'bob'],
      startsAt: new Date('2030-03-01T09:00:00').toISOString(),
      endsAt: new Date('2030-03-02T09:00').toISOString(),
    });
    expect(createBoostRequest({ ...values, actionKeys: ['login'] }).actionKeys).toEqual(['login']);
    expect([instantOfPicked(null), instantOfPicked(''), instantOfPicked('not a date')]).toEqual([null, null, null]);
  });

  it('check the multiplier and the window as the API does', () => {
    expect([multiplierRule(2), multiplierRule('10'), multiplierRule(1), multiplierRule(10.5), multiplierRule(1.234), multiplierRule(1.15)]).toEqual([
      null,
      null,
      'More than 1 and at most 10',
      'More than 1 and at most 10',
      'At most 2 decimal places',
      null,
    ]);
    const now = new Date('2030-01-01T00:00:00Z');
    const start = { startsAt: '2030-03-01 00:00:00' };
    expect(endsAtRule('2030-03-02 00:00:00', start, now)).toBeNull();
    expect(endsAtRule('2030-02-01 00:00:00', start, now)).toBe('After the start');
    expect(endsAtRule('2029-12-31 00:00:00', { startsAt: null }, now)).toBe('An end in the future');
    expect(endsAtRule('2031-03-05 00:00:00', start, now)).toBe('At most 366 days after the start');
    expect(endsAtRule(null, start, now)).toBe('When the boost ends');
  });
});

describe('the boosts page', () => {
  it('lists the boosts with state, window, multiplier and scope; filters by state in the URL; a VIEWER has no control', async () => {
    const api = boostsApi();
    const { location } = renderApp('/apps/app_1/boosts', { session: sessionFor('VIEWER'), api });
    const table = await screen.findByRole('table', { name: 'Boosts' });
    const rows = within(table).getAllByRole('row').slice(1).map((r) => r.textContent);
    expect(rows[0]).toMatch(/Double weekend.*scheduled.*→.*×2.*every action · every user/);
    expect(rows[1]).toMatch(/Launch week.*active.*×1\.5.*action first_purchase · users ana, bob/);
    expect(rows[2]).toMatch(/Old promo.*ended.*×3/);
    expect(screen.queryByRole('button', { name: /new boost|delete/i })).toBeNull();

    const user = userEvent.setup();
    await user.click(screen.getByLabelText('State', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Active' }));
    await waitFor(() => expect(location()).toBe('/apps/app_1/boosts?state=ACTIVE'));
    await waitFor(() => expect(api.sent('GET', '/api/v1/incentives/boosts').at(-1)!.query.get('state')).toBe('ACTIVE'));
  });

  it('deletes only a boost that has not started, after confirming', async () => {
    const api = boostsApi().on('DELETE', '/api/v1/incentives/boosts/bst_1', { status: 204 });
    renderApp('/apps/app_1/boosts', { session: sessionFor('MANAGER'), api });
    const user = userEvent.setup();
    await screen.findByRole('table', { name: 'Boosts' });
    expect(screen.queryByRole('button', { name: 'Delete Launch week' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete Old promo' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Delete Double weekend' }));
    await user.click(await screen.findByRole('button', { name: 'Delete boost' }));
    await waitFor(() => expect(api.sent('DELETE', '/api/v1/incentives/boosts/bst_1')).toHaveLength(1));
    expect(await screen.findByText('Boost “Double weekend” deleted.')).toBeInTheDocument();
  });

  it('schedules a boost from the date-time inputs, a window the API refuses said under Ends at', async () => {
    let refused = true;
    const api = boostsApi().on('POST', '/api/v1/incentives/boosts', (r) =>
      refused ? apiError(422, 'INVALID_RANGE', 'endsAt must be in the future', { field: 'endsAt' }) : { status: 201, body: { boost: boost({ ...(r.body as object), id: 'bst_9' }) } },
    );
    renderApp('/apps/app_1/boosts', { session: sessionFor('MANAGER'), api });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'New boost' }));
    const dialog = await screen.findByRole('dialog', { name: 'New boost' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Launch weekend');
    const multiplier = within(dialog).getByRole('textbox', { name: /^Multiplier/ });
    await user.clear(multiplier);
    await user.type(multiplier, '1.5');
    await user.click(within(dialog).getByLabelText('Actions', { selector: 'input' }));
    await user.click(await within(dialog).findByRole('option', { name: 'Log in (login)' }));
    await user.type(within(dialog).getByLabelText('User ids', { selector: 'input' }), 'ana{Enter}');
    await user.type(within(dialog).getByRole('textbox', { name: /^Starts at/ }), '2030-03-01 09:00');
    await user.type(within(dialog).getByRole('textbox', { name: /^Ends at/ }), '2030-03-03 18:30');
    await user.click(within(dialog).getByRole('button', { name: 'Create boost' }));
    expect(await within(dialog).findByText('endsAt must be in the future')).toBeInTheDocument();
    refused = false;
    await user.click(within(dialog).getByRole('button', { name: 'Create boost' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New boost' })).toBeNull());
    const sent = api.sent('POST', '/api/v1/incentives/boosts');
    expect(sent.at(-1)!.body).toEqual({
      name: 'Launch weekend',
      multiplier: 1.5,
      actionKeys: ['login'],
      userIds: ['ana'],
      startsAt: new Date('2030-03-01T09:00:00').toISOString(),
      endsAt: new Date('2030-03-03T18:30:00').toISOString(),
    });
    // A refusal changed nothing: the next try is a new operation.
    expect(sent[0]!.headers.get('Idempotency-Key')).not.toBe(sent[1]!.headers.get('Idempotency-Key'));
    expect(await screen.findByText('Boost “Launch weekend” scheduled.')).toBeInTheDocument();
  });

  it('checks the form before sending it', async () => {
    const api = boostsApi();
    renderApp('/apps/app_1/boosts?edit=new', { session: sessionFor('MANAGER'), api });
    const user = userEvent.setup();
    const dialog = await screen.findByRole('dialog', { name: 'New boost' });
    const multiplier = within(dialog).getByRole('textbox', { name: /^Multiplier/ });
    await user.clear(multiplier);
    await user.type(multiplier, '1');
    await user.click(within(dialog).getByRole('button', { name: 'Create boost' }));
    expect(within(dialog).getByText('Give the boost a name')).toBeInTheDocument();
    expect(within(dialog).getByText('More than 1 and at most 10')).toBeInTheDocument();
    expect(within(dialog).getByText('When the boost starts')).toBeInTheDocument();
    expect(within(dialog).getByText('When the boost ends')).toBeInTheDocument();
    expect(api.sent('POST', '/api/v1/incentives/boosts')).toHaveLength(0);
  });

  it('picks a day in the calendar of a date-time field, keeping the time typed; typing opens no calendar', async () => {
    renderApp('/apps/app_1/boosts?edit=new', { session: sessionFor('MANAGER'), api: boostsApi() });
    const user = userEvent.setup();
    const dialog = await screen.findByRole('dialog', { name: 'New boost' });
    const startsAt = within(dialog).getByRole('textbox', { name: /^Starts at/ });
    await user.type(startsAt, '2030-03-01 09:00');
    expect(within(dialog).queryByRole('button', { name: '5 March 2030' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Pick the start day' }));
    await user.click(await within(dialog).findByRole('button', { name: '5 March 2030' }));
    await waitFor(() => expect(startsAt).toHaveValue('2030-03-05 09:00'));
    expect(within(dialog).queryByRole('button', { name: '6 March 2030' })).toBeNull();
  });

  it('is in the navigation, under Incentives', async () => {
    renderApp('/apps/app_1/boosts', { session: sessionFor('VIEWER'), api: boostsApi() });
    const incentives = await screen.findByRole('group', { name: 'Incentives' });
    expect(within(incentives).getByRole('link', { name: 'Boosts' })).toHaveAttribute('href', '/apps/app_1/boosts');
  });
});
