import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Reward, RewardMove } from '../../api/types';
import { FakeApi, page } from '../../test/fake-api';
import { sessionFor } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';

const reward: Reward = {
  id: 'rwd_1',
  userId: 'ana',
  campaignId: 'cmp_1',
  referralId: 'ref_1',
  conversionId: 'conv_1',
  side: 'REFERRER',
  level: 1,
  amount: 10,
  fulfillmentType: 'DISCOUNT_CODE',
  status: 'CANCELLED',
  discountCode: null,
  expiresAt: null,
  claimedAt: null,
  redeemedAt: null,
  createdAt: '2026-11-24T10:00:00.000Z',
};

describe('the rewards page', () => {
  it("opens one reward from the URL with its history, oldest move first", async () => {
    const api = new FakeApi()
      .on('GET', '/api/v1/rewards', { body: { rewards: [reward], pagination: page(1) } })
      .on('GET', '/api/v1/rewards/rwd_1', { body: { reward } })
      .on('GET', '/api/v1/rewards/rwd_1/history', {
        body: {
          history: [
            { from: 'NEW', to: 'PENDING', at: '2026-11-24T10:00:00.000Z' },
            { from: 'PENDING', to: 'CANCELLED', at: '2026-11-24T11:00:00.000Z' },
          ],
        } satisfies { history: RewardMove[] },
      });
    renderApp('/apps/app_1/rewards?reward=rwd_1', { session: sessionFor('VIEWER'), api });
    const drawer = await screen.findByRole('dialog', { name: 'Reward' });
    expect(await within(drawer).findByText('pending → cancelled')).toBeInTheDocument();
    const moves = within(drawer).getAllByText(/^(created pending|pending → cancelled)$/).map((e) => e.textContent);
    expect(moves).toEqual(['created pending', 'pending → cancelled']);
    expect(within(drawer).getByRole('link', { name: 'ana' })).toHaveAttribute('href', '/apps/app_1/users?userId=ana');
  });
});
