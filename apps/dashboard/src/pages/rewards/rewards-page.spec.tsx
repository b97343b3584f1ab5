import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Reward, RewardMove } from '../../api/types';
import { FakeApi, page } from '../../test/fake-api';
import { sessionFor } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { formatDate } from '../../ui/format';
import type { RewardWithTerms } from './reward-terms';

const reward: Reward = {
  id: 'rwd_1',
  userId: 'ana',
  campaignId: 'cmp_1',
  referralId: 'ref_1',
  conversionId: 'conv_1',
  side: 'REFERRER',
  level: 1,
  amount: 10,
  earnedAmount: 10,
  reversedAmount: 0,
  reversalReason: null,
  purchaseId: null,
  availableAt: null,
  currency: 'USD',
  fulfillmentType: 'DISCOUNT_CODE',
  status: 'CANCELLED',
  discountCode: null,
  expiresAt: null,
  claimedAt: null,
  redeemedAt: null,
  createdAt: '2026-11-24T10:00:00.000Z',
  cancellationNote: null,
  payoutId: null,
  paidAt: null,
  clawedBack: 0,
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

  it("shows a CASH reward's payout, when it was paid and what is owed back for it, and offers no action its payout refuses", async () => {
    const inPayout: Reward = { ...reward, id: 'rwd_c', fulfillmentType: 'CASH', status: 'APPROVED', payoutId: 'po_1' };
    const paid: Reward = { ...inPayout, id: 'rwd_p', status: 'PAID', paidAt: '2026-11-26T10:00:00.000Z', clawedBack: 4 };
    const api = new FakeApi()
      .on('GET', '/api/v1/rewards', { body: { rewards: [inPayout, paid], pagination: page(2) } })
      .on('GET', '/api/v1/rewards/rwd_c', { body: { reward: inPayout } })
      .on('GET', '/api/v1/rewards/rwd_p', { body: { reward: paid } })
      .on('GET', /\/api\/v1\/rewards\/rwd_.\/history/, { body: { history: [] } });
    const { unmount } = renderApp('/apps/app_1/rewards?reward=rwd_c', { session: sessionFor('MANAGER'), api });
    const drawer = await screen.findByRole('dialog', { name: 'Reward' });
    expect(await within(drawer).findByRole('link', { name: 'po_1' })).toHaveAttribute('href', '/apps/app_1/payouts?payout=po_1');
    expect(within(drawer).getByText('Cash (paid out)')).toBeInTheDocument();
    expect(within(drawer).getByText('in a payout')).toBeInTheDocument();
    // Its payout pays it (never Mark fulfilled), and a reward in a payout is not cancelled.
    expect(within(drawer).queryByRole('button', { name: /^(Approve|Mark fulfilled|Cancel)$/ })).toBeNull();
    // Nor selected for an action in the list.
    expect(screen.getByRole('checkbox', { name: 'Select reward rwd_c', hidden: true })).toBeDisabled();
    unmount();

    renderApp('/apps/app_1/rewards?reward=rwd_p', { session: sessionFor('VIEWER'), api });
    const paidDrawer = await screen.findByRole('dialog', { name: 'Reward' });
    expect(await within(paidDrawer).findByText('Paid out')).toBeInTheDocument();
    expect(within(paidDrawer).getByText(/^2026-11-26/)).toBeInTheDocument();
    expect(within(paidDrawer).getByText('Owed back').nextSibling).toHaveTextContent('$4.00');
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

  it('says until when a reward is held, that a reversal took one back or by how much it reduced one, in their currencies', async () => {
    const inTenDays = new Date(Date.now() + 10 * 86_400_000).toISOString();
    const rewards: RewardWithTerms[] = [
      { ...reward, id: 'rwd_held', userId: 'held', status: 'PENDING', currency: 'EUR', availableAt: inTenDays, reversedAmount: 0, earnedAmount: 10, reversalReason: null },
      { ...reward, id: 'rwd_gone', userId: 'gone', status: 'CANCELLED', reversedAmount: 10, earnedAmount: 10, reversalReason: 'REFUND' },
      { ...reward, id: 'rwd_less', userId: 'less', status: 'APPROVED', amount: 6, currency: 'GBP', reversedAmount: 4, earnedAmount: 10, reversalReason: 'CHARGEBACK' },
      // A gateway without the new fields: neither held nor reversed.
      { ...reward, id: 'rwd_old', userId: 'old', status: 'PENDING' },
    ];
    const api = new FakeApi()
      .on('GET', '/api/v1/rewards', { body: { rewards, pagination: page(4) } })
      .on('GET', '/api/v1/rewards/rwd_less', { body: { reward: rewards[2] } })
      .on('GET', '/api/v1/rewards/rwd_less/history', { body: { history: [] } });
    renderApp('/apps/app_1/rewards', { session: sessionFor('VIEWER'), api });
    const row = async (userId: string) => (await screen.findByText(userId, { selector: 'td' })).closest('tr')!;
    const held = await row('held');
    expect(within(held).getByText('€10.00')).toBeInTheDocument();
    expect(within(held).getByText(`held until ${formatDate(inTenDays)}`)).toBeInTheDocument();
    const gone = await row('gone');
    expect(within(gone).getByLabelText('$10.00, reversed')).toBeInTheDocument();
    expect(within(gone).getByText('reversed (refund)')).toBeInTheDocument();
    const less = await row('less');
    expect(within(less).getByText('£6.00')).toBeInTheDocument();
    expect(within(less).getByText('reduced by £4.00 (chargeback)')).toBeInTheDocument();
    expect(within(await row('old')).queryByText(/held until|reversed|reduced by/)).toBeNull();

    // Its drawer says what it earned and what was taken back.
    const user = userEvent.setup();
    await user.click(within(less).getByRole('button', { name: 'Details of reward rwd_less' }));
    const drawer = await screen.findByRole('dialog', { name: 'Reward' });
    expect(await within(drawer).findByText('£10.00')).toBeInTheDocument();
    expect(within(drawer).getByText('£4.00 · chargeback')).toBeInTheDocument();
  });
});
