import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { IncentiveBalance, IncentiveTransaction } from '../../api/types';
import { FakeApi, apiError, page } from '../../test/fake-api';
import { sessionFor } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { formatDateTime } from '../../ui/format';
import { debtText, expiringText } from './balance-credits';
import { causeOf } from './ledger-cause';
import { ledgerNotes } from './ledger-notes';
import { isEventReward, reverseEventRequest, reversalText, reversedSources } from './reverse-event';

const balance: IncentiveBalance = {
  userId: 'ana',
  coins: 120,
  tokens: 3,
  xp: 450,
  level: 0,
  levelName: null,
  nextLevel: null,
  progress: 0,
  perks: [],
  coinsEarned: 170,
  rewardedEvents: 4,
  referrals: 0,
  updatedAt: null,
  pendingCoins: 40,
  pendingTokens: 0,
  expiring: [
    { currency: 'COINS', amount: 50, expiresAt: '2026-12-01T00:00:00.000Z' },
    { currency: 'TOKENS', amount: 1, expiresAt: '2026-12-02T00:00:00.000Z' },
  ],
  debtCoins: 0,
  debtTokens: 0,
};
const entry = (overrides: Partial<IncentiveTransaction>): IncentiveTransaction => ({
  id: 'txn_1',
  seq: 1,
  reason: 'ACTION_REWARD',
  cause: 'EVENT',
  coins: 50,
  xp: 120,
  tokens: 0,
  balanceAfter: { coins: 50, xp: 120, tokens: 0 },
  sourceId: 'evt_1',
  actionKey: 'first_purchase',
  description: null,
  unrecovered: null,
  reversal: null,
  boost: null,
  streak: null,
  pendingCoins: 0,
  pendingTokens: 0,
  debt: null,
  debtRepaid: null,
  createdAt: '2026-11-24T10:00:00.000Z',
  ...overrides,
});

const ledger = [
  entry({ id: 'txn_6', seq: 6, reason: 'EXPIRY', cause: 'EXPIRY', coins: -20, xp: 0, sourceId: 'expiry:2026-11-27', actionKey: null }),
  entry({ id: 'txn_5', seq: 5, reason: 'PENDING_RELEASE', cause: 'PENDING_RELEASE', coins: 40, xp: 0, pendingCoins: -40, sourceId: 'evt_3' }),
  entry({ id: 'txn_4', seq: 4, reason: 'REVERSAL', cause: 'EVENT_REVERSAL', coins: -30, xp: -120, debt: { coins: 20, tokens: 0 }, sourceId: 'evt_2', description: 'Event reversed: fraud' }),
  entry({ id: 'txn_3', seq: 3, coins: 0, pendingCoins: 40, sourceId: 'evt_3' }),
  entry({ id: 'txn_2', seq: 2, sourceId: 'evt_2' }),
  entry({ id: 'txn_1', seq: 1, coins: 30, debtRepaid: { coins: 20, tokens: 0 } }),
];

function userApi() {
  return new FakeApi()
    .on('GET', '/api/v1/incentives/balances/ana', { body: { balance } })
    .on('GET', '/api/v1/incentives/balances/ana/transactions', { body: { transactions: ledger, pagination: page(ledger.length) } })
    .on('GET', /^\/api\/v1\/incentives\/leaderboard\/[^/]+$/, apiError(404, 'NOT_FOUND', 'Not on this board.'))
    .on('GET', '/api/v1/users/ana/stats', apiError(404, 'NOT_FOUND', 'No stats.'));
}

describe('credits in words', () => {
  it('say the next expiries, a debt, the new causes, and the notes of pending changes and debts', () => {
    expect(expiringText({ currency: 'COINS', amount: 50, expiresAt: '2026-12-01T00:00:00.000Z' })).toBe(`50 coins expire on ${formatDateTime('2026-12-01T00:00:00.000Z')}`);
    expect(expiringText({ currency: 'TOKENS', amount: 1, expiresAt: '2026-12-01T00:00:00.000Z' })).toMatch(/^1 token expires on /);
    expect([debtText({ debtCoins: 0, debtTokens: 0 }), debtText({ debtCoins: 30, debtTokens: 2 })]).toEqual([null, '30 coins · 2 tokens']);
    expect((['EXPIRY', 'PENDING_RELEASE', 'EVENT_REVERSAL'] as const).map((cause) => causeOf({ cause }))).toEqual(['expired', 'pending released', 'event reversed']);
    expect(ledgerNotes({ ...entry({}), pendingCoins: 40, pendingTokens: -2 })).toEqual(['pending +40 coins · −2 tokens']);
    expect(ledgerNotes(entry({ debt: { coins: 20, tokens: 0 } }))).toEqual(['debt 20 coins']);
    expect(ledgerNotes(entry({ debtRepaid: { coins: 0, tokens: 1 } }))).toEqual(['debt repaid 1 tokens']);
    expect(ledgerNotes(entry({ debt: { coins: 0, tokens: 0 } }))).toEqual([]);
  });

  it('send a reversal’s reason only when given, and tell reversible and reversed entries apart', () => {
    expect([reverseEventRequest({ reason: '  ' }), reverseEventRequest({ reason: ' Fraud ' })]).toEqual([{}, { reason: 'Fraud' }]);
    expect(ledger.map(isEventReward)).toEqual([false, false, false, true, true, true]);
    expect([...reversedSources(ledger)]).toEqual(['evt_2']);
    expect(reversalText(entry({ reason: 'REVERSAL', coins: 0, xp: -120, pendingCoins: -40 }))).toBe('−120 XP · pending −40 coins');
    expect(reversalText(entry({ reason: 'REVERSAL', coins: 0, xp: 0 }))).toBe('nothing to take back');
  });
});

describe("a user's credits", () => {
  it('shows pending coins and tokens, the next expiries with their dates, and a debt only when owed', async () => {
    const { unmount } = renderApp('/apps/app_1/users?userId=ana', { session: sessionFor('VIEWER'), api: userApi() });
    expect(await screen.findByLabelText('Pending coins')).toHaveTextContent('40');
    expect(screen.getByLabelText('Pending tokens')).toHaveTextContent('0');
    const expiring = screen.getByRole('region', { name: 'Expiring next' });
    expect(within(expiring).getByText(`50 coins expire on ${formatDateTime('2026-12-01T00:00:00.000Z')}`)).toBeInTheDocument();
    expect(within(expiring).getByText(/^1 token expires on /)).toBeInTheDocument();
    expect(screen.queryByLabelText('Debt')).toBeNull();
    unmount();

    const owing = userApi().on('GET', '/api/v1/incentives/balances/ana', { body: { balance: { ...balance, expiring: [], debtCoins: 20, debtTokens: 0 } } });
    renderApp('/apps/app_1/users?userId=ana', { session: sessionFor('VIEWER'), api: owing });
    expect(await screen.findByLabelText('Debt')).toHaveTextContent('20 coins');
    expect(within(screen.getByRole('region', { name: 'Expiring next' })).getByText('Nothing set to expire')).toBeInTheDocument();
  });

  it('labels expiries, releases and reversals in the ledger with their pending changes and debts; a VIEWER sees what was reversed and no reverse control', async () => {
    renderApp('/apps/app_1/users?userId=ana', { session: sessionFor('VIEWER'), api: userApi() });
    const rows = await screen.findAllByTestId('ledger-row');
    expect(rows[0]).toHaveTextContent(/expired.*−20 coins/);
    expect(rows[1]).toHaveTextContent(/pending released.*pending −40 coins.*\+40 coins/);
    expect(rows[2]).toHaveTextContent(/event reversed.*debt 20 coins.*−30 coins · −120 XP.*Event reversed: fraud/);
    expect(rows[3]).toHaveTextContent(/event.*pending \+40 coins.*\+120 XP/);
    expect(rows[5]).toHaveTextContent(/debt repaid 20 coins.*\+30 coins/);
    // evt_2 was taken back (the REVERSAL of the same sourceId): said, not offered again.
    expect(within(rows[4]!).getByText('reversed')).toBeInTheDocument();
    expect(within(rows[3]!).queryByText('reversed')).toBeNull();
    expect(screen.queryByRole('button', { name: /^Reverse event/ })).toBeNull();
  });

  it('reverses an event for a MANAGER: confirmed in a dialog with an optional reason, a refusal said in it; then the balance and ledger are read again', async () => {
    let refused = true;
    const api = userApi().on('POST', /^\/api\/v1\/incentives\/events\/[^/]+\/reverse$/, () =>
      refused
        ? apiError(422, 'EVENT_NOT_REWARDED', 'The event earned nothing: there is nothing to take back.')
        : { status: 201, body: { transaction: entry({ id: 'txn_7', seq: 7, reason: 'REVERSAL', cause: 'EVENT_REVERSAL', coins: 0, xp: -120, pendingCoins: -40, sourceId: 'evt_3' }), balance } },
    );
    renderApp('/apps/app_1/users?userId=ana', { session: sessionFor('MANAGER'), api });
    const user = userEvent.setup();
    await screen.findAllByTestId('ledger-row');
    // Only rewards not taken back yet: evt_3 and evt_1, not evt_2.
    expect(screen.getAllByRole('button', { name: /^Reverse event / }).map((b) => b.getAttribute('aria-label'))).toEqual(['Reverse event evt_3', 'Reverse event evt_1']);

    await user.click(screen.getByRole('button', { name: 'Reverse event evt_3' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reverse event' });
    await user.click(within(dialog).getByRole('button', { name: 'Reverse event' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The event earned nothing: there is nothing to take back.');

    refused = false;
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Fraud');
    const reads = api.sent('GET', '/api/v1/incentives/balances/ana').length;
    await user.click(within(dialog).getByRole('button', { name: 'Reverse event' }));
    expect(await screen.findByText('Event evt_3 reversed: −120 XP · pending −40 coins.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Reverse event' })).toBeNull());
    const sent = api.sent('POST', '/api/v1/incentives/events/evt_3/reverse');
    expect(sent.map((r) => r.body)).toEqual([{}, { reason: 'Fraud' }]);
    // A refusal the API answered is not retried under its key: the changed body is a new operation.
    expect(sent[0]!.headers.get('Idempotency-Key')).not.toBe(sent[1]!.headers.get('Idempotency-Key'));
    expect(sent[1]!.headers.get('X-CSRF-Token')).toBe('csrf-123');
    await waitFor(() => expect(api.sent('GET', '/api/v1/incentives/balances/ana').length).toBeGreaterThan(reads));
    await waitFor(() => expect(api.sent('GET', '/api/v1/incentives/balances/ana/transactions').length).toBeGreaterThan(1));
  });

  it('says so when the event was reversed before (200): nothing changed', async () => {
    const api = userApi().on('POST', '/api/v1/incentives/events/evt_1/reverse', {
      status: 200,
      body: { transaction: entry({ id: 'txn_9', reason: 'REVERSAL', cause: 'EVENT_REVERSAL', coins: -30, xp: -120, sourceId: 'evt_1' }), balance },
    });
    renderApp('/apps/app_1/users?userId=ana', { session: sessionFor('OWNER'), api });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Reverse event evt_1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reverse event' });
    await user.click(within(dialog).getByRole('button', { name: 'Reverse event' }));
    expect(await screen.findByText('Event evt_1 was reversed before: nothing changed.')).toBeInTheDocument();
  });
});
