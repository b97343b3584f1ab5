import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { IncentiveEvent } from '../../../api/types';
import { FakeApi, apiError, page } from '../../../test/fake-api';
import { incentiveAction, sessionFor } from '../../../test/fixtures';
import { renderApp } from '../../../test/render-app';
import { instantOf, localOf } from '../../../ui/local-time';
import { eventOutcome } from './event-outcome';

const event = (overrides: Partial<IncentiveEvent>): IncentiveEvent => ({
  id: 'evt_1',
  userId: 'ana',
  actionKey: 'first_purchase',
  idempotencyKey: null,
  metadata: null,
  source: 'API',
  rewarded: { coins: 50, xp: 120, tokens: 0 },
  reason: null,
  duplicates: 0,
  createdAt: '2026-11-24T10:00:00.000Z',
  ...overrides,
});

describe('an event’s outcome', () => {
  it('says what was granted, or why nothing was', () => {
    expect(eventOutcome(event({}))).toEqual({ rewarded: true, text: '50 coins · 120 XP' });
    expect(eventOutcome(event({ rewarded: null, reason: 'COOLDOWN' }))).toEqual({ rewarded: false, text: 'nothing: inside the cooldown' });
    expect(eventOutcome(event({ rewarded: null, reason: 'MAX_REPEATS' })).text).toBe('nothing: past the max repeats');
    expect(eventOutcome(event({ rewarded: null, reason: 'ACTION_DISABLED' })).text).toBe('nothing: the action is disabled');
  });

  it('round-trips the time filter between the field (local time) and the URL (an instant)', () => {
    const iso = instantOf('2026-11-24T09:30')!;
    expect(localOf(iso)).toBe('2026-11-24T09:30');
    expect([instantOf(''), localOf(null), localOf('not a date')]).toEqual([null, '', '']);
  });
});

describe('the events page', () => {
  it('filters by user, action and time from the URL and the form, and shows why an event earned nothing', async () => {
    const api = new FakeApi()
      .on('GET', '/api/v1/incentives/actions', { body: { actions: [incentiveAction()], pagination: page(1) } })
      .on('GET', '/api/v1/incentives/events', {
        body: { events: [event({}), event({ id: 'evt_2', rewarded: null, reason: 'COOLDOWN', idempotencyKey: 'order-7', metadata: { orderId: 7 }, duplicates: 2 })], pagination: page(2) },
      });
    const { location } = renderApp('/apps/app_1/events?actionKey=first_purchase', { session: sessionFor('VIEWER'), api });
    const table = await screen.findByRole('table', { name: 'Events' });
    expect(within(table).getByText('nothing: inside the cooldown')).toBeInTheDocument();
    expect(within(table).getByText('order-7')).toBeInTheDocument();
    expect(within(table).getByText('2 repeats')).toBeInTheDocument();
    expect(within(table).getByText('{"orderId":7}')).toBeInTheDocument();
    expect(within(table).getAllByRole('link', { name: 'ana' })[0]).toHaveAttribute('href', '/apps/app_1/users?userId=ana');
    expect(api.sent('GET', '/api/v1/incentives/events')[0]!.query.get('actionKey')).toBe('first_purchase');

    await userEvent.type(screen.getByRole('textbox', { name: 'User id' }), 'ana');
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-24T09:30' } });
    await userEvent.click(screen.getByRole('button', { name: 'Filter' }));
    const from = instantOf('2026-11-24T09:30')!;
    await waitFor(() => expect(location()).toBe(`/apps/app_1/events?actionKey=first_purchase&userId=ana&from=${encodeURIComponent(from)}`));
    await waitFor(() => expect(api.sent('GET', '/api/v1/incentives/events')).toHaveLength(2));
    const sent = api.sent('GET', '/api/v1/incentives/events')[1]!.query;
    expect([sent.get('userId'), sent.get('from'), sent.get('to')]).toEqual(['ana', from, null]);
  });

  it("shows the API's message when the list cannot be read", async () => {
    const api = new FakeApi()
      .on('GET', '/api/v1/incentives/actions', { body: { actions: [], pagination: page(0) } })
      .on('GET', '/api/v1/incentives/events', apiError(400, 'VALIDATION_ERROR', 'query.from: must be a date-time'));
    renderApp('/apps/app_1/events?from=yesterday', { session: sessionFor('VIEWER'), api });
    expect(await screen.findByRole('alert')).toHaveTextContent('query.from: must be a date-time');
  });
});
