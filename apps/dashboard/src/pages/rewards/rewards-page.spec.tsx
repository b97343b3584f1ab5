import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
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
  currency: 'USD',
  fulfillmentType: 'DISCOUNT_CODE',
  status: 'CANCELLED',
  discountCode: null,
  expiresAt: null,
  claimedAt: null,
  redeemedAt: null,
  createdAt: '2026-11-24T10:00:00.000Z',
  cancellationNote: null,
};

describe('the rewards page', () => {
  it("opens one reward from the URL with its history, oldest move first", async () => {
    const api = new FakeApi()
      .on('GET', '/api/v1/rewards', { body: { rewards: [reward], pagination: page(1) } })
      .on('GET', '/api/v1/rewards/rwd_1', { body: { reward } })
      .on('GET', '/api/v1/rewards/rwd_1/history', {
        body: {
          history: [
            { from: 'NEW', to: 'PENDING', at: '2026-11-24T10:00:00.000Z', note: null },
            { from: 'PENDING', to: 'CANCELLED', at: '2026-11-24T11:00:00.000Z', note: 'Order returned' },
          ],
        } satisfies { history: RewardMove[] },
      });
    renderApp('/apps/app_1/rewards?reward=rwd_1', { session: sessionFor('VIEWER'), api });
    const drawer = await screen.findByRole('dialog', { name: 'Reward' });
    expect(await within(drawer).findByText('pending → cancelled')).toBeInTheDocument();
    const moves = within(drawer).getAllByText(/^(created pending|pending → cancelled)$/).map((e) => e.textContent);
    expect(moves).toEqual(['created pending', 'pending → cancelled']);
    expect(within(drawer).getByRole('link', { name: 'ana' })).toHaveAttribute('href', '/apps/app_1/users?userId=ana');
    expect(within(drawer).getByText('Order returned')).toBeInTheDocument();
    // A VIEWER is offered no action, and a cancelled reward none to anybody.
    expect(within(drawer).queryByRole('button', { name: /^(Approve|Mark fulfilled|Cancel)$/ })).toBeNull();
  });

  it("offers a MANAGER the actions that apply to a reward, and cancels with the note typed", async () => {
    const approved: Reward = { ...reward, id: 'rwd_2', status: 'APPROVED' };
    const api = new FakeApi()
      .on('GET', '/api/v1/rewards', { body: { rewards: [approved], pagination: page(1) } })
      .on('GET', '/api/v1/rewards/rwd_2', { body: { reward: approved } })
      .on('GET', '/api/v1/rewards/rwd_2/history', { body: { history: [] } })
      .on('POST', '/api/v1/rewards/rwd_2/cancel', { body: { reward: { ...approved, status: 'CANCELLED', cancellationNote: 'Order returned' } } });
    const user = userEvent.setup();
    renderApp('/apps/app_1/rewards?reward=rwd_2', { session: sessionFor('MANAGER'), api });
    const drawer = await screen.findByRole('dialog', { name: 'Reward' });
    expect(await within(drawer).findByRole('button', { name: 'Mark fulfilled' })).toBeInTheDocument();
    expect(within(drawer).queryByRole('button', { name: 'Approve' })).toBeNull();
    await user.click(within(drawer).getByRole('button', { name: 'Cancel' }));
    const confirm = await screen.findByRole('dialog', { name: 'Cancel 1 reward' });
    const send = within(confirm).getByRole('button', { name: 'Cancel 1 reward' });
    // A cancellation needs its reason.
    expect(send).toBeDisabled();
    await user.type(within(confirm).getByRole('textbox', { name: /Note/ }), 'Order returned');
    await user.click(send);
    await vi.waitFor(() => expect(api.sent('POST', '/api/v1/rewards/rwd_2/cancel').map((r) => r.body)).toEqual([{ note: 'Order returned' }]));
  });

  it('acts on the selected rewards at once, sending only those the action applies to', async () => {
    const held: Reward = { ...reward, id: 'rwd_h', status: 'PENDING' };
    const approved: Reward = { ...reward, id: 'rwd_a', status: 'APPROVED' };
    const api = new FakeApi()
      .on('GET', '/api/v1/rewards', { body: { rewards: [held, approved, reward], pagination: page(3) } })
      .on('POST', /\/api\/v1\/rewards\/rwd_.\/approve/, { body: { reward: { ...held, status: 'APPROVED' } } });
    const user = userEvent.setup();
    renderApp('/apps/app_1/rewards', { session: sessionFor('OWNER'), api });
    await user.click(await screen.findByRole('checkbox', { name: 'Select reward rwd_h' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select reward rwd_a' }));
    // The cancelled one cannot be selected.
    expect(screen.getByRole('checkbox', { name: 'Select reward rwd_1' })).toBeDisabled();
    const bar = screen.getByLabelText('Selected rewards');
    await user.click(within(bar).getByRole('button', { name: 'Approve' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Approve 1 reward' })).getByRole('button', { name: 'Approve 1 reward' }));
    await vi.waitFor(() => expect(api.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual(['/api/v1/rewards/rwd_h/approve']));
  });
});
