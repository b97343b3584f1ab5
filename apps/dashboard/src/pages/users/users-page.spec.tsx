import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { IncentiveBalance, IncentiveTransaction, UserStats } from '../../api/types';
import { FakeApi, apiError, page } from '../../test/fake-api';
import { payout, redemption, sessionFor } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { adjustmentRequest } from './adjust-balance';
import { causeOf } from './ledger-cause';
import { levelWords } from './level-words';

const balance: IncentiveBalance = {
  userId: 'ana',
  coins: 120,
  tokens: 3,
  xp: 450,
  level: 2,
  levelName: 'Silver',
  nextLevel: { level: 3, name: 'Gold', xpThreshold: 1000, xpRemaining: 550 },
  progress: 0.5,
  perks: ['free shipping'],
  coinsEarned: 120,
  rewardedEvents: 4,
  referrals: 2,
  updatedAt: null,
  pendingCoins: 0,
  pendingTokens: 0,
  expiring: [],
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
const stats: UserStats = {
  userId: 'ana',
  campaignId: null,
  referrals: 2,
  clicks: 40,
  conversions: 6,
  rewardsEarned: 60,
  rewardsPending: 10,
  byLevel: [{ level: 2, conversions: 1, rewardsEarned: 3, rewardsPending: 0 }],
  refereeRewards: { earned: 5, pending: 0 },
};

function userApi() {
  return new FakeApi()
    .on('GET', /^\/api\/v1\/incentives\/balances\/[^/]+$/, (r) => ({ body: { balance: { ...balance, userId: decodeURIComponent(r.path.split('/').pop()!) } } }))
    .on('GET', '/api/v1/incentives/balances/ana/transactions', {
      body: { transactions: [entry({ id: 'txn_2', seq: 2, reason: 'DEBIT', cause: 'CATALOG_REDEMPTION', coins: -30, xp: 0, balanceAfter: { coins: 20, xp: 120, tokens: 0 }, sourceId: 'rdm_1', actionKey: null, description: 'Tote bag' }), entry({})], pagination: page(2) },
    })
    .on('GET', /^\/api\/v1\/incentives\/leaderboard\/[^/]+$/, (r) => (r.query.get('period') === 'DAILY' ? apiError(404, 'NOT_FOUND', 'Not on this board.') : { body: { rank: 3, userId: 'ana', xp: 450, coins: 120 } }))
    .on('GET', '/api/v1/users/ana/stats', { body: stats })
    .on('GET', '/api/v1/users/ana/rewards', { body: { rewards: [], pagination: page(0) } })
    .on('GET', '/api/v1/incentives/catalog', { body: { items: [], pagination: page(0) } })
    .on('GET', '/api/v1/incentives/redemptions', { body: { redemptions: [redemption()], pagination: page(1) } })
    .on('GET', '/api/v1/incentives/badges/user/ana', {
      body: { badges: [{ userId: 'ana', key: 'gold', name: 'Gold', description: null, imageUrl: null, source: 'LEVEL', sourceId: '2', awardedAt: '2026-11-24T10:00:00.000Z' }], pagination: page(1) },
    });
}

describe('the ledger', () => {
  it('names the cause of each movement', () => {
    const causes: Array<IncentiveTransaction['cause']> = ['EVENT', 'LEVEL', 'MILESTONE', 'CATALOG_REDEMPTION', 'MARKETPLACE_REDEMPTION', 'REFUND', 'ADJUSTMENT', 'SCORE_SET'];
    expect(causes.map((cause) => causeOf({ cause }))).toEqual([
      'event',
      'level reward',
      'milestone reward',
      'catalog redemption',
      'marketplace redemption',
      'refund',
      'manual adjustment',
      'score set',
    ]);
  });

  it('sends an adjustment’s moving amounts and its reason', () => {
    expect(adjustmentRequest({ coins: '-20', tokens: '', xp: 0, note: ' Goodwill ' })).toEqual({ coins: -20, note: 'Goodwill' });
    expect(adjustmentRequest({ coins: 5, tokens: 1, xp: '-', note: 'x' })).toEqual({ coins: 5, tokens: 1, note: 'x' });
  });
});

describe('the users page', () => {
  it('shows one user in full from the URL: balances, level and progress, ranks per period, and the ledger with causes', async () => {
    const api = userApi();
    renderApp('/apps/app_1/users?userId=ana', { session: sessionFor('VIEWER'), api });
    expect(await screen.findByLabelText('Level')).toHaveTextContent('2 · Silver');
    expect(screen.getByText('550 XP to level 3 · Gold (50 %)')).toBeInTheDocument();
    expect(screen.getByLabelText('Coins', { selector: 'p' })).toHaveTextContent('120');
    expect(screen.getByText('free shipping')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Rank all time')).toHaveTextContent('#3'));
    await waitFor(() => expect(screen.getByLabelText('Rank today')).toHaveTextContent('—'));
    const rows = (await screen.findAllByTestId('ledger-row')).map((r) => r.textContent);
    expect(rows[0]).toContain('catalog redemption');
    expect(rows[0]).toContain('−30 coins');
    expect(rows[0]).toContain('Tote bag');
    expect(rows[1]).toContain('+50 coins · +120 XP');
  });

  it("sums up the user's referrals as GET /users/{userId}/stats counts them, whatever the engine counted", async () => {
    // The engine counts only conversions a referral action rewarded (none defined here): 0, while the user's codes converted 6.
    const api = userApi().on('GET', '/api/v1/incentives/balances/ana', { body: { balance: { ...balance, referrals: 0 } } });
    renderApp('/apps/app_1/users?userId=ana', { session: sessionFor('VIEWER'), api });
    const line = await screen.findByText(/^referral codes 2 · clicks 40 · conversions 6/);
    expect(line).toHaveTextContent('referees rewarded by actions 0');
    expect(line).not.toHaveTextContent(/· referrals 0/);
    // The tab reads the same answer (one request for both).
    await userEvent.setup().click(screen.getByRole('tab', { name: 'Referrals & rewards' }));
    expect(await screen.findByLabelText('Referral codes')).toHaveTextContent('2');
    expect(screen.getByLabelText('Conversions', { selector: 'p' })).toHaveTextContent('6');
    expect(api.sent('GET', '/api/v1/users/ana/stats')).toHaveLength(1);
  });

  it('says when the app defines no level, instead of "level 0, the highest level"', async () => {
    const api = userApi().on('GET', '/api/v1/incentives/balances/ana', { body: { balance: { ...balance, level: 0, levelName: null, nextLevel: null, progress: 0 } } });
    renderApp('/apps/app_1/users?userId=ana', { session: sessionFor('VIEWER'), api });
    expect(await screen.findByLabelText('Level')).toHaveTextContent('None');
    expect(screen.getByText(/No level ladder defined/)).toBeInTheDocument();
    expect(screen.queryByText('The highest level')).toBeNull();
    expect(screen.queryByLabelText('Progress to the next level')).toBeNull();
    expect(screen.getByRole('link', { name: 'Go to levels' })).toHaveAttribute('href', '/apps/app_1/progression');
  });

  it('reads a level in words: below the first, between two, at the top, or no ladder at all', () => {
    const next = { level: 1, name: 'Bronze', xpThreshold: 100, xpRemaining: 40 };
    expect(levelWords({ level: 0, levelName: null, nextLevel: next, progress: 0.6 })).toEqual({ level: '0', ahead: '40 XP to level 1 · Bronze (60 %)', percent: 60 });
    expect(levelWords({ level: 3, levelName: 'Gold', nextLevel: null, progress: 1 })).toEqual({ level: '3 · Gold', ahead: 'The highest level', percent: 100 });
    expect(levelWords({ level: 0, levelName: null, nextLevel: null, progress: 0 })).toEqual({ level: 'None', ahead: 'No level ladder defined', percent: null });
  });

  it('opens each side of the user in its tab, kept in the URL', async () => {
    const { location } = renderApp('/apps/app_1/users?userId=ana&tab=badges', { session: sessionFor('VIEWER'), api: userApi() });
    const badges = await screen.findByRole('table', { name: 'Badges' });
    expect(within(badges).getByText('level 2')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Catalog redemptions' }));
    await waitFor(() => expect(location()).toBe('/apps/app_1/users?userId=ana&tab=catalog'));
    expect(await screen.findByRole('table', { name: 'Redemptions' })).toHaveTextContent('Tote bag');
    // A VIEWER reads the redemption, and cannot fulfil or cancel it.
    expect(screen.queryByRole('button', { name: /fulfil|cancel/i })).toBeNull();
    await user.click(screen.getByRole('tab', { name: 'Referrals & rewards' }));
    expect(await screen.findByText('40')).toBeInTheDocument();
    expect(screen.getByText('No rewards yet.')).toBeInTheDocument();
  });

  it('puts a new lookup in the URL', async () => {
    const api = userApi().on('GET', '/api/v1/incentives/balances/nobody/transactions', { body: { transactions: [], pagination: page(0) } });
    const { location } = renderApp('/apps/app_1/users', { session: sessionFor('VIEWER'), api });
    await userEvent.type(await screen.findByLabelText('User id'), 'nobody{Enter}');
    await waitFor(() => expect(location()).toBe('/apps/app_1/users?userId=nobody'));
    expect(await screen.findByText('No movements yet')).toBeInTheDocument();
  });

  it('adjusts a balance for a MANAGER: a debit below zero refused with the API’s message, then a credit; a retry of the same body keeps its Idempotency-Key', async () => {
    let attempts = 0;
    const api = userApi().on('POST', '/api/v1/incentives/balances/ana/adjustments', (r) => {
      attempts += 1;
      const body = r.body as { coins?: number; note: string };
      if ((body.coins ?? 0) < 0) return apiError(422, 'INSUFFICIENT_BALANCE', 'The user does not have enough coins or tokens.');
      if (attempts === 2) return apiError(503, 'UNAVAILABLE', 'The incentive service did not answer; retry.');
      return { status: 201, body: { transaction: entry({ id: 'txn_3', seq: 3, reason: 'ADJUSTMENT', cause: 'ADJUSTMENT', coins: body.coins ?? 0, xp: 0, description: body.note }), balance } };
    });
    renderApp('/apps/app_1/users?userId=ana', { session: sessionFor('MANAGER'), api });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Adjust balance' }));
    const dialog = await screen.findByRole('dialog', { name: 'Adjust the balance of ana' });
    await user.click(within(dialog).getByRole('button', { name: 'Adjust' }));
    expect(within(dialog).getByText('Say why: it is kept in the ledger and the audit log')).toBeInTheDocument();
    expect(within(dialog).getByText('Change at least one of coins, tokens or XP')).toBeInTheDocument();
    expect(api.sent('POST', '/api/v1/incentives/balances/ana/adjustments')).toHaveLength(0);

    await user.type(within(dialog).getByRole('textbox', { name: 'Coins' }), '-500');
    await user.type(within(dialog).getByRole('textbox', { name: /^Reason/ }), 'Chargeback');
    await user.click(within(dialog).getByRole('button', { name: 'Adjust' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The user does not have enough coins or tokens.');

    await user.clear(within(dialog).getByRole('textbox', { name: 'Coins' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Coins' }), '50');
    await user.click(within(dialog).getByRole('button', { name: 'Adjust' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The incentive service did not answer; retry.');
    await user.click(within(dialog).getByRole('button', { name: 'Adjust' }));
    expect(await screen.findByText('ana adjusted: +50 coins.')).toBeInTheDocument();
    const sent = api.sent('POST', '/api/v1/incentives/balances/ana/adjustments');
    expect(sent.map((r) => r.body)).toEqual([{ coins: -500, note: 'Chargeback' }, { coins: 50, note: 'Chargeback' }, { coins: 50, note: 'Chargeback' }]);
    const keys = sent.map((r) => r.headers.get('Idempotency-Key'));
    expect(keys[1]).toBe(keys[2]);
    expect(keys[0]).not.toBe(keys[1]);
    expect(sent[2]!.headers.get('X-CSRF-Token')).toBe('csrf-123');
  });

  it('says what a user owes back when anything (GET /rewards/clawbacks?userId=), and nothing otherwise', async () => {
    const clawback = { id: 'clb_1', rewardId: 'rwd_9', userId: 'ana', campaignId: 'cmp_1', conversionId: 'conv_1', purchaseId: null, reversalId: 'rvs_1', amount: 2.5, currency: 'EUR', reason: 'CHARGEBACK', createdAt: '2026-11-25T10:00:00.000Z' };
    const owing = userApi().on('GET', '/api/v1/rewards/clawbacks', { body: { clawbacks: [clawback], totals: [{ currency: 'EUR', amount: 2.5 }], pagination: page(1) } });
    const { unmount } = renderApp('/apps/app_1/users?userId=ana', { session: sessionFor('VIEWER'), api: owing });
    const owed = await screen.findByRole('region', { name: 'Owes back €2.50' });
    expect(within(owed).getByRole('table', { name: 'Owed back' })).toHaveTextContent(/€2\.50.*chargeback.*rwd_9/);
    expect(within(owed).getByRole('link', { name: 'rwd_9' })).toHaveAttribute('href', '/apps/app_1/rewards?reward=rwd_9');
    expect(owing.sent('GET', '/api/v1/rewards/clawbacks')[0]!.query.get('userId')).toBe('ana');
    unmount();

    const square = userApi().on('GET', '/api/v1/rewards/clawbacks', { body: { clawbacks: [], totals: [], pagination: page(0) } });
    renderApp('/apps/app_1/users?userId=ana', { session: sessionFor('VIEWER'), api: square });
    await screen.findAllByTestId('ledger-row');
    await waitFor(() => expect(square.sent('GET', '/api/v1/rewards/clawbacks')).toHaveLength(1));
    expect(screen.queryByText(/Owes back/)).toBeNull();
  });

  it("shows a referrer's payouts and what they are due beside what they owe back, each clawback settled, deducted or owed", async () => {
    const clawback = { id: 'clb_1', rewardId: 'rwd_9', userId: 'ana', campaignId: 'cmp_1', conversionId: 'conv_1', purchaseId: null, reversalId: 'rvs_1', amount: 10, currency: 'USD', reason: 'REFUND', createdAt: '2026-11-25T10:00:00.000Z' };
    const clawbacks = [
      { ...clawback, payoutId: null, settledAt: null },
      { ...clawback, id: 'clb_2', payoutId: 'po_2', settledAt: null },
      { ...clawback, id: 'clb_3', payoutId: 'po_1', settledAt: '2026-11-26T10:00:00.000Z' },
    ];
    const api = userApi()
      .on('GET', '/api/v1/rewards/clawbacks', { body: { clawbacks, totals: [{ currency: 'USD', amount: 20 }], pagination: page(3) } })
      .on('GET', '/api/v1/payouts', { body: { payouts: [payout({ id: 'po_2' }), payout({ status: 'PAID', externalReference: 'wire-001' })], pagination: page(2) } })
      .on('GET', '/api/v1/payouts/due', {
        body: { due: [{ userId: 'ana', currency: 'USD', amount: -2, rewardsAmount: 8, clawbacksAmount: 10, rewardCount: 1, clawbackCount: 1, payable: false }] },
      });
    renderApp('/apps/app_1/users?userId=ana', { session: sessionFor('VIEWER'), api });
    const payouts = await screen.findByRole('region', { name: 'Payouts' });
    expect(payouts).toHaveTextContent('-$2.00 due now (1 reward, less $10.00 owed back): owes more than earned');
    const rows = within(within(payouts).getByRole('table', { name: 'Payouts of the user' })).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([expect.stringMatching(/\$35\.05.*pending/), expect.stringMatching(/\$35\.05.*paid.*ref\. wire-001/)]);
    expect(within(payouts).getByRole('link', { name: 'Payout po_2' })).toHaveAttribute('href', '/apps/app_1/payouts?payout=po_2');
    expect(within(payouts).getByRole('link', { name: 'On the Payouts page' })).toHaveAttribute('href', '/apps/app_1/payouts?userId=ana');
    expect(api.sent('GET', '/api/v1/payouts')[0]!.query.get('userId')).toBe('ana');
    expect(api.sent('GET', '/api/v1/payouts/due')[0]!.query.get('userId')).toBe('ana');

    const owed = screen.getByRole('region', { name: 'Owes back $20.00' });
    const states = within(within(owed).getByRole('table', { name: 'Owed back' })).getAllByRole('row').slice(1).map((r) => r.lastElementChild?.textContent);
    expect(states).toEqual(['owed', 'deducted by po_2', expect.stringMatching(/^settled 2026-11-2[67]$/)]);
  });

  it('says a referrer whose clawbacks were all settled owes nothing, quietly', async () => {
    const settled = { id: 'clb_1', rewardId: 'rwd_9', userId: 'ana', campaignId: 'cmp_1', conversionId: 'conv_1', purchaseId: null, reversalId: 'rvs_1', amount: 10, currency: 'USD', reason: 'REFUND', createdAt: '2026-11-25T10:00:00.000Z', payoutId: 'po_1', settledAt: '2026-11-26T10:00:00.000Z' };
    const api = userApi().on('GET', '/api/v1/rewards/clawbacks', { body: { clawbacks: [settled], totals: [], pagination: page(1) } });
    renderApp('/apps/app_1/users?userId=ana', { session: sessionFor('VIEWER'), api });
    const region = await screen.findByRole('region', { name: 'Clawbacks' });
    expect(region).toHaveTextContent('Nothing owed back: 1 clawback of ana, each deducted by a payout that was paid.');
    expect(screen.queryByText(/Owes back/)).toBeNull();
  });

  it('shows a VIEWER no adjustment control', async () => {
    renderApp('/apps/app_1/users?userId=ana', { session: sessionFor('VIEWER'), api: userApi() });
    await screen.findAllByTestId('ledger-row');
    expect(screen.queryByRole('button', { name: 'Adjust balance' })).toBeNull();
  });
});
