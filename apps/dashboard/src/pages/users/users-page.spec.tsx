import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { IncentiveBalance, UserStats } from '../../api/types';
import { FakeApi, page } from '../../test/fake-api';
import { sessionFor } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';

const balance: IncentiveBalance = { userId: 'ana', coins: 120, tokens: 3, xp: 450, level: 2, levelName: 'Silver', nextLevel: null, progress: 0.5, perks: [], coinsEarned: 120, rewardedEvents: 4, referrals: 2, updatedAt: null };

describe('the users page', () => {
  it('looks a user up from the URL: referral stats, balances and rewards', async () => {
    const api = new FakeApi()
      .on('GET', '/api/v1/users/ana/stats', {
        body: { userId: 'ana', campaignId: null, referrals: 2, clicks: 40, conversions: 6, rewardsEarned: 60, rewardsPending: 10, byLevel: [{ level: 2, conversions: 1, rewardsEarned: 3, rewardsPending: 0 }], refereeRewards: { earned: 5, pending: 0 } },
      })
      .on('GET', '/api/v1/incentives/balances/ana', { body: { balance } })
      .on('GET', '/api/v1/users/ana/rewards', { body: { rewards: [], pagination: page(0) } });
    renderApp('/apps/app_1/users?userId=ana', { session: sessionFor('VIEWER'), api });
    expect(await screen.findByText('2 · Silver')).toBeInTheDocument();
    expect(await screen.findByText('40')).toBeInTheDocument();
    expect(screen.getByText('No rewards yet.')).toBeInTheDocument();
  });

  it('shows a user without activity as zeros, and puts a new lookup in the URL', async () => {
    const zeros: UserStats = { userId: 'nobody', campaignId: null, referrals: 0, clicks: 0, conversions: 0, rewardsEarned: 0, rewardsPending: 0, byLevel: [], refereeRewards: { earned: 0, pending: 0 } };
    const api = new FakeApi()
      .on('GET', /^\/api\/v1\/users\/[^/]+\/stats$/, { body: zeros })
      .on('GET', /^\/api\/v1\/incentives\/balances\/[^/]+$/, { body: { balance } })
      .on('GET', /^\/api\/v1\/users\/[^/]+\/rewards$/, { body: { rewards: [], pagination: page(0) } });
    const { location } = renderApp('/apps/app_1/users', { session: sessionFor('VIEWER'), api });
    await userEvent.type(await screen.findByLabelText('User id'), 'nobody{Enter}');
    await waitFor(() => expect(location()).toBe('/apps/app_1/users?userId=nobody'));
    expect(await screen.findByText('0 + 0 pending')).toBeInTheDocument();
    expect(api.sent('GET', '/api/v1/users/nobody/stats')).toHaveLength(1);
  });
});
