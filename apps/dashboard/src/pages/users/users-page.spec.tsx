import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { IncentiveBalance, IncentiveTransaction, UserStats } from '../../api/types';
import { FakeApi, apiError, page } from '../../test/fake-api';
import { redemption, sessionFor } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { causeOf } from './ledger-cause';

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
};
const entry = (overrides: Partial<IncentiveTransaction>): IncentiveTransaction => ({
  id: 'txn_1',
  seq: 1,
  reason: 'ACTION_REWARD',
  coins: 50,
  xp: 120,
  tokens: 0,
  balanceAfter: { coins: 50, xp: 120, tokens: 0 },
  sourceId: 'evt_1',
  actionKey: 'first_purchase',
  description: null,
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
      body: { transactions: [entry({ id: 'txn_2', seq: 2, reason: 'DEBIT', coins: -30, xp: 0, balanceAfter: { coins: 20, xp: 120, tokens: 0 }, sourceId: 'rdm_1', actionKey: null, description: 'Tote bag' }), entry({})], pagination: page(2) },
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
    expect(['ACTION_REWARD', 'LEVEL_REWARD', 'MILESTONE_REWARD', 'DEBIT', 'CREDIT', 'SCORE_SET'].map((reason) => causeOf({ reason: reason as IncentiveTransaction['reason'] }))).toEqual([
      'event',
      'level reward',
      'milestone reward',
      'debit',
      'credit',
      'score set',
    ]);
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
    expect(rows[0]).toContain('debit');
    expect(rows[0]).toContain('−30 coins');
    expect(rows[0]).toContain('Tote bag');
    expect(rows[1]).toContain('+50 coins · +120 XP');
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
});
