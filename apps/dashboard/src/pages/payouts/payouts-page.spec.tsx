import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { PayoutDetail, PayoutDue } from '../../api/types';
import { FakeApi, apiError, page } from '../../test/fake-api';
import { payout, sessionFor } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { dueNote, minimumOf, payoutMakeup, payoutNote } from './payout-words';

const due = (overrides: Partial<PayoutDue> = {}): PayoutDue => ({
  userId: 'ana',
  currency: 'USD',
  amount: 35.05,
  rewardsAmount: 35.05,
  clawbacksAmount: 0,
  rewardCount: 2,
  clawbackCount: 0,
  payable: true,
  ...overrides,
});

const detail = (overrides: Partial<PayoutDetail> = {}): PayoutDetail => ({
  payout: payout({ clawbacksAmount: 5, clawbackCount: 1, rewardsAmount: 40.05 }),
  rewards: [
    { id: 'rwd_1', campaignId: 'cmp_1', conversionId: 'conv_1', purchaseId: null, amount: 20, createdAt: '2026-11-20T10:00:00.000Z' },
    { id: 'rwd_2', campaignId: 'cmp_1', conversionId: 'conv_2', purchaseId: 'pur_9', amount: 20.05, createdAt: '2026-11-21T10:00:00.000Z' },
  ],
  clawbacks: [{ id: 'clb_1', rewardId: 'rwd_0', reversalId: 'rvs_1', amount: 5, reason: 'CHARGEBACK', createdAt: '2026-11-22T10:00:00.000Z' }],
  ...overrides,
});

/** The page's reads: what is due, and the payouts (none unless given). */
function payoutsApi(list = [payout()]) {
  return new FakeApi()
    .on('GET', '/api/v1/payouts/due', { body: { due: [due(), due({ userId: 'bob', amount: 4, rewardsAmount: 4, rewardCount: 1, payable: false }), due({ userId: 'cyd', amount: -2, rewardsAmount: 8, clawbacksAmount: 10, clawbackCount: 1, payable: false })] } })
    .on('GET', '/api/v1/payouts', { body: { payouts: list, pagination: page(list.length) } });
}

describe('payouts in words', () => {
  it('says what a payout is made of, where it stands and why a referrer is (not) payable', () => {
    expect(payoutMakeup(payout())).toBe('$35.05 of 2 rewards');
    expect(payoutMakeup(payout({ rewardsAmount: 13, clawbacksAmount: 10, clawbackCount: 1, currency: 'EUR' }))).toBe('€13.00 of 2 rewards − €10.00 owed back (1 clawback)');
    expect(payoutNote(payout({ status: 'PAID', externalReference: 'wire-001' }))).toBe('ref. wire-001');
    expect(payoutNote(payout({ status: 'FAILED', failureReason: 'IBAN closed' }))).toBe('IBAN closed');
    expect(payoutNote(payout())).toBeNull();
    expect([dueNote(due()), dueNote(due({ payable: false, amount: 4 })), dueNote(due({ payable: false, amount: 0 }))]).toEqual(['payable', 'below the minimum', 'owes more than earned']);
    expect([minimumOf('10'), minimumOf('0'), minimumOf('-1'), minimumOf('ten'), minimumOf(null)]).toEqual([10, 0, undefined, undefined, undefined]);
  });
});

describe('the payouts page', () => {
  it('lists what is due with the filters of the URL, then creates payouts after confirming, says what was made and reads the lists again', async () => {
    const made = payout({ id: 'po_new' });
    const api = payoutsApi([]).on('POST', '/api/v1/payouts', { status: 201, body: { payouts: [made] } });
    const user = userEvent.setup();
    renderApp('/apps/app_1/payouts?minimumAmount=10&currency=USD', { session: sessionFor('MANAGER'), api });
    const table = await screen.findByRole('table', { name: 'Due now' });
    const rows = within(table).getAllByTestId('due-row');
    expect(rows.map((r) => r.getAttribute('data-payable'))).toEqual(['true', 'false', 'false']);
    expect(rows[0]).toHaveTextContent(/ana.*\$35\.05.*2 rewards.*payable/);
    expect(rows[1]).toHaveTextContent('below the minimum');
    expect(rows[2]).toHaveTextContent(/-\$2\.00.*\$8\.00 · 2 rewards.*\$10\.00 · 1 clawback.*owes more than earned/);
    const read = api.sent('GET', '/api/v1/payouts/due')[0]!.query;
    expect([read.get('minimumAmount'), read.get('currency')]).toEqual(['10', 'USD']);
    expect(screen.getByRole('textbox', { name: /Minimum amount/ })).toHaveValue('10');
    expect(await screen.findByText('No payouts')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Create payouts' }));
    const confirm = await screen.findByRole('dialog', { name: 'Create payouts?' });
    expect(confirm).toHaveTextContent('1 payout of $35.05 in all');
    await user.click(within(confirm).getByRole('button', { name: 'Create 1 payout' }));
    const result = await screen.findByRole('dialog', { name: 'Payouts made' });
    expect(within(result).getByTestId('made-payout')).toHaveTextContent(/ana.*\$35\.05.*po_new/);
    expect(within(result).getByRole('link', { name: 'po_new' })).toHaveAttribute('href', '/apps/app_1/payouts?payout=po_new');
    const sent = api.sent('POST', '/api/v1/payouts');
    expect(sent.map((r) => r.body)).toEqual([{ minimumAmount: 10, currency: 'USD' }]);
    expect(sent[0]!.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f]{32}$/);
    // The due list and the payouts are read again.
    await waitFor(() => expect(api.sent('GET', '/api/v1/payouts/due').length).toBeGreaterThan(1));
    await waitFor(() => expect(api.sent('GET', '/api/v1/payouts').length).toBeGreaterThan(1));
  });

  it('applies a typed minimum and a currency to the URL, and filters the payouts by status and referrer', async () => {
    const api = payoutsApi();
    const user = userEvent.setup();
    const { location } = renderApp('/apps/app_1/payouts?status=PAID&userId=ana', { session: sessionFor('VIEWER'), api });
    await screen.findAllByTestId('payout-row');
    const listed = api.sent('GET', '/api/v1/payouts')[0]!.query;
    expect([listed.get('status'), listed.get('userId')]).toEqual(['PAID', 'ana']);
    await user.type(screen.getByRole('textbox', { name: /Minimum amount/ }), '25');
    await user.click(within(screen.getByRole('search', { name: 'Minimum amount due' })).getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(location()).toContain('minimumAmount=25'));
    await waitFor(() => expect(api.sent('GET', '/api/v1/payouts/due').at(-1)!.query.get('minimumAmount')).toBe('25'));
    await user.type(screen.getByRole('combobox', { name: 'Currency' }), 'euro');
    await user.click(await screen.findByRole('option', { name: 'EUR — Euro' }));
    await waitFor(() => expect(location()).toContain('currency=EUR'));
    await waitFor(() => expect(api.sent('GET', '/api/v1/payouts/due').at(-1)!.query.get('currency')).toBe('EUR'));
    // The payouts keep their filters.
    expect(location()).toMatch(/status=PAID.*userId=ana/);
    // A VIEWER makes no payout.
    expect(screen.queryByRole('button', { name: 'Create payouts' })).toBeNull();
  });

  it('opens a payout from the URL with the rewards it pays and the clawbacks it deducts, and marks it paid with the reference typed', async () => {
    const api = payoutsApi()
      .on('GET', '/api/v1/payouts/po_1', { body: detail() })
      .on('POST', '/api/v1/payouts/po_1/paid', { body: { payout: payout({ status: 'PAID', externalReference: 'wire-001', paidAt: '2026-11-25T10:00:00.000Z' }) } });
    const user = userEvent.setup();
    renderApp('/apps/app_1/payouts?payout=po_1', { session: sessionFor('OWNER'), api });
    const drawer = await screen.findByRole('dialog', { name: 'Payout' });
    expect(await within(drawer).findByRole('table', { name: 'Rewards it pays' })).toHaveTextContent(/rwd_1of conversion conv_1\$20\.00.*rwd_2of purchase pur_9\$20\.05/);
    expect(within(drawer).getByRole('table', { name: 'Clawbacks it deducts' })).toHaveTextContent(/\$5\.00.*chargeback.*rwd_0/);
    expect(within(drawer).getByRole('link', { name: 'rwd_1' })).toHaveAttribute('href', '/apps/app_1/rewards?reward=rwd_1');

    await user.click(within(drawer).getByRole('button', { name: 'Mark paid' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mark payout paid' });
    expect(dialog).toHaveTextContent('Record that $35.05 was sent to ana');
    // The reference is required: nothing is sent without it.
    await user.click(within(dialog).getByRole('button', { name: 'Mark paid' }));
    expect(await within(dialog).findByText('Required')).toBeInTheDocument();
    expect(api.sent('POST', '/api/v1/payouts/po_1/paid')).toEqual([]);
    await user.type(within(dialog).getByRole('textbox', { name: /Transfer reference/ }), ' wire-001 ');
    await user.click(within(dialog).getByRole('button', { name: 'Mark paid' }));
    await vi.waitFor(() => expect(api.sent('POST', '/api/v1/payouts/po_1/paid').map((r) => r.body)).toEqual([{ externalReference: 'wire-001' }]));
    expect(await screen.findByText('Payout of $35.05 to ana marked paid.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Mark payout paid' })).toBeNull());
    // The payout, the list and what is due are read again.
    await waitFor(() => expect(api.sent('GET', '/api/v1/payouts/po_1').length).toBeGreaterThan(1));
    await waitFor(() => expect(api.sent('GET', '/api/v1/payouts').length).toBeGreaterThan(1));
  });

  it("says the API's refusal in the dialog when a payout is no longer pending", async () => {
    const api = payoutsApi()
      .on('GET', '/api/v1/payouts/po_1', { body: detail() })
      .on('POST', '/api/v1/payouts/po_1/failed', apiError(409, 'INVALID_TRANSITION', 'The payout is PAID: only a PENDING payout can be marked failed.'));
    const user = userEvent.setup();
    renderApp('/apps/app_1/payouts?payout=po_1', { session: sessionFor('MANAGER'), api });
    const drawer = await screen.findByRole('dialog', { name: 'Payout' });
    await user.click(await within(drawer).findByRole('button', { name: 'Mark failed' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mark payout failed' });
    await user.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'IBAN closed');
    await user.click(within(dialog).getByRole('button', { name: 'Mark failed' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The payout is PAID: only a PENDING payout can be marked failed.');
    expect(api.sent('POST', '/api/v1/payouts/po_1/failed').map((r) => r.body)).toEqual([{ reason: 'IBAN closed' }]);
  });

  it('shows a VIEWER a pending payout without Mark paid or Mark failed, and a paid one with its reference', async () => {
    const paid = payout({ id: 'po_2', status: 'PAID', externalReference: 'wire-7', paidAt: '2026-11-25T10:00:00.000Z' });
    const api = payoutsApi([payout(), paid]).on('GET', '/api/v1/payouts/po_1', { body: detail({ clawbacks: [] }) });
    renderApp('/apps/app_1/payouts?payout=po_1', { session: sessionFor('VIEWER'), api });
    const drawer = await screen.findByRole('dialog', { name: 'Payout' });
    expect(await within(drawer).findByText('None: it deducts nothing owed back.')).toBeInTheDocument();
    expect(within(drawer).queryByRole('button', { name: /^Mark / })).toBeNull();
    const rows = screen.getAllByTestId('payout-row');
    expect(rows[1]).toHaveTextContent(/paid.*ref\. wire-7/);
  });
});
