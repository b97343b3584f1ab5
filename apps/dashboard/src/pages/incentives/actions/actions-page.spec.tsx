import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FakeApi, apiError, page } from '../../../test/fake-api';
import { incentiveAction, sessionFor } from '../../../test/fixtures';
import { renderApp } from '../../../test/render-app';
import { NEW_ACTION, createActionRequest, pendingDaysRule, pendingText, updateActionRequest } from './action-request';

const purchase = incentiveAction();
const login = incentiveAction({ key: 'daily_login', name: 'Daily login', coins: 5, xp: 10, cooldown: 86_400, maxRepeats: 30, enabled: false });

function actionsApi() {
  return new FakeApi()
    .on('GET', '/api/v1/incentives/actions', { body: { actions: [purchase, login], pagination: page(2) } })
    .on('GET', '/api/v1/incentives/actions/first_purchase', { body: { action: purchase } })
    .on('GET', '/api/v1/incentives/settings', { body: { settings: { coinExpiryDays: null, tokenExpiryDays: null, updatedAt: null } } });
}

describe('the action form', () => {
  it('sends whole numbers, an empty max repeats as unlimited, and leaves an empty description out of a new action', () => {
    const values = { ...NEW_ACTION, key: ' signup ', name: ' Sign-up ', coins: '10', maxRepeats: '' };
    expect(createActionRequest(values)).toEqual({ key: 'signup', name: 'Sign-up', type: 'STANDARD', coins: 10, xp: 0, tokens: 0, cooldown: 0, maxRepeats: null, enabled: true, pendingDays: 0 });
    expect(updateActionRequest({ ...values, maxRepeats: 3, description: ' once a day ' })).toMatchObject({ maxRepeats: 3, description: 'once a day' });
  });

  it('sends the pending days as a whole number from 0 to 365, and says them in the list', () => {
    expect(createActionRequest({ ...NEW_ACTION, key: 'k', name: 'n', pendingDays: '7' }).pendingDays).toBe(7);
    expect(updateActionRequest({ ...NEW_ACTION, pendingDays: '' }).pendingDays).toBe(0);
    expect([pendingDaysRule(0), pendingDaysRule('365'), pendingDaysRule(''), pendingDaysRule(366), pendingDaysRule(-1)]).toEqual([
      null,
      null,
      null,
      'A whole number of days from 0 to 365',
      'A whole number of days from 0 to 365',
    ]);
    expect([pendingText(0), pendingText(1), pendingText(14)]).toEqual([null, 'pending 1 day', 'pending 14 days']);
  });
});

describe('the actions page', () => {
  it('lists what each action earns and its limits, filtered from the URL', async () => {
    const api = actionsApi();
    renderApp('/apps/app_1/actions?type=STANDARD&enabled=false', { session: sessionFor('VIEWER'), api });
    const table = await screen.findByRole('table', { name: 'Actions' });
    expect(within(table).getByText('50 coins · 120 XP')).toBeInTheDocument();
    expect(within(table).getByText('1 d')).toBeInTheDocument();
    expect(within(table).getByText('unlimited')).toBeInTheDocument();
    const sent = api.sent('GET', '/api/v1/incentives/actions')[0]!.query;
    expect([sent.get('type'), sent.get('enabled')]).toEqual(['STANDARD', 'false']);
    // A VIEWER reads states, and has no control to change them.
    expect(within(table).getByText('disabled')).toBeInTheDocument();
    expect(screen.queryByRole('switch')).toBeNull();
    expect(screen.queryByRole('button', { name: /new action|edit/i })).toBeNull();
  });

  it('creates an action from its form and shows a key already taken on its field', async () => {
    let taken = true;
    const api = actionsApi().on('POST', '/api/v1/incentives/actions', (r) =>
      taken
        ? apiError(409, 'ALREADY_EXISTS', 'The app already has this key.', { issues: [{ field: 'body.key', message: 'already exists' }] })
        : { status: 201, body: { action: incentiveAction(r.body as object) } },
    );
    const { location } = renderApp('/apps/app_1/actions', { session: sessionFor('MANAGER'), api });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'New action' }));
    expect(location()).toBe('/apps/app_1/actions?edit=new');
    const dialog = await screen.findByRole('dialog', { name: 'New action' });
    // Pasted rather than typed key by key: the same change events, fewer renders on a busy machine.
    const fill = async (name: RegExp | string, text: string) => {
      const field = within(dialog).getByRole('textbox', { name });
      await user.clear(field);
      await user.click(field);
      await user.paste(text);
    };
    await fill(/^Key/, 'first_purchase');
    await fill(/^Name/, 'Purchase');
    await fill('Coins', '25');
    await user.click(within(dialog).getByRole('button', { name: 'Create action' }));
    expect(await within(dialog).findByText('already exists')).toBeInTheDocument();
    taken = false;
    await fill(/^Key/, 'purchase');
    await user.click(within(dialog).getByRole('button', { name: 'Create action' }));
    await waitFor(() => expect(location()).toBe('/apps/app_1/actions'));
    expect(api.sent('POST', '/api/v1/incentives/actions').at(-1)!.body).toMatchObject({ key: 'purchase', name: 'Purchase', coins: 25, type: 'STANDARD' });
    expect(api.sent('POST', '/api/v1/incentives/actions').at(-1)!.headers.get('X-CSRF-Token')).toBe('csrf-123');
  });

  it('disables an action with its switch and edits one from a link', async () => {
    const api = actionsApi()
      .on('PATCH', '/api/v1/incentives/actions/first_purchase', (r) => ({ body: { action: { ...purchase, ...(r.body as object) } } }));
    renderApp('/apps/app_1/actions?edit=first_purchase', { session: sessionFor('MANAGER'), api });
    const user = userEvent.setup();
    const dialog = await screen.findByRole('dialog', { name: 'Edit action' });
    await waitFor(() => expect(within(dialog).getByRole('textbox', { name: /^Name/ })).toHaveValue('First purchase'));
    expect(within(dialog).getByRole('textbox', { name: /^Key/ })).toBeDisabled();
    await user.clear(within(dialog).getByRole('textbox', { name: 'XP' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'XP' }), '200');
    await user.click(within(dialog).getByRole('button', { name: 'Save action' }));
    await waitFor(() => expect(api.sent('PATCH', '/api/v1/incentives/actions/first_purchase')).toHaveLength(1));
    expect(api.sent('PATCH', '/api/v1/incentives/actions/first_purchase')[0]!.body).toMatchObject({ xp: 200, maxRepeats: null, name: 'First purchase' });

    await user.click(await screen.findByRole('switch', { name: 'First purchase enabled' }));
    await waitFor(() => expect(api.sent('PATCH', '/api/v1/incentives/actions/first_purchase')).toHaveLength(2));
    expect(api.sent('PATCH', '/api/v1/incentives/actions/first_purchase')[1]!.body).toEqual({ enabled: false });
  });
});

describe('pending days of an action', () => {
  it('shows them in the list when set, and sends them from the form; more than 365 refused before sending', async () => {
    const held = incentiveAction({ key: 'review', name: 'Review', coins: 30, pendingDays: 14 });
    const api = actionsApi()
      .on('GET', '/api/v1/incentives/actions', { body: { actions: [purchase, held], pagination: page(2) } })
      .on('PATCH', '/api/v1/incentives/actions/first_purchase', (r) => ({ body: { action: { ...purchase, ...(r.body as object) } } }));
    renderApp('/apps/app_1/actions', { session: sessionFor('MANAGER'), api });
    const table = await screen.findByRole('table', { name: 'Actions' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]).not.toHaveTextContent('pending');
    expect(rows[1]).toHaveTextContent(/30 coins · 120 XP\s*pending 14 days/);

    const user = userEvent.setup();
    await user.click(within(rows[0]!).getByRole('button', { name: 'Edit First purchase' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit action' });
    const pending = within(dialog).getByRole('textbox', { name: 'Pending days' });
    await waitFor(() => expect(pending).toHaveValue('0'));
    await user.clear(pending);
    await user.type(pending, '400');
    await user.click(within(dialog).getByRole('button', { name: 'Save action' }));
    expect(await within(dialog).findByText('A whole number of days from 0 to 365')).toBeInTheDocument();
    expect(api.sent('PATCH', '/api/v1/incentives/actions/first_purchase')).toHaveLength(0);
    await user.clear(pending);
    await user.type(pending, '7');
    await user.click(within(dialog).getByRole('button', { name: 'Save action' }));
    await waitFor(() => expect(api.sent('PATCH', '/api/v1/incentives/actions/first_purchase')).toHaveLength(1));
    expect(api.sent('PATCH', '/api/v1/incentives/actions/first_purchase')[0]!.body).toMatchObject({ pendingDays: 7 });
  });
});

describe('an action’s activity', () => {
  it('shows how often the action was performed and what it paid over the period in the URL, from its series', async () => {
    const bucket = (day: string, events: number, rewardedEvents: number) => ({ start: `${day}T00:00:00.000Z`, events, rewardedEvents, coins: rewardedEvents * 50, xp: rewardedEvents * 120, tokens: 0 });
    const api = actionsApi().on('GET', '/api/v1/incentives/actions/first_purchase/timeseries', (r) => ({
      body: { actionKey: 'first_purchase', interval: 'day', from: r.query.get('from'), to: r.query.get('to'), buckets: [bucket('2026-11-23', 3, 2), bucket('2026-11-24', 1, 0)] },
    }));
    renderApp('/apps/app_1/actions?action=first_purchase&days=7', { session: sessionFor('VIEWER'), api });
    const drawer = await screen.findByRole('dialog', { name: 'Action' });
    expect(await within(drawer).findByLabelText('Events')).toHaveTextContent('4');
    expect(within(drawer).getByLabelText('Rewarded')).toHaveTextContent('2');
    expect(within(drawer).getByLabelText('Coins paid')).toHaveTextContent('100');
    expect(within(drawer).getByLabelText('XP paid')).toHaveTextContent('240');
    const sent = api.sent('GET', '/api/v1/incentives/actions/first_purchase/timeseries')[0]!.query;
    expect(sent.get('interval')).toBe('day');
    expect(Date.parse(sent.get('to')!) - Date.parse(sent.get('from')!)).toBe(7 * 86_400_000);
  });
});
