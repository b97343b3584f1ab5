import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Conversion, Reward } from '../../api/types';
import { FakeApi, apiError, page } from '../../test/fake-api';
import { campaign, sessionFor } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { NEW_REVERSAL, effectText, reversalErrors, reversalRequest, reversibleSales, type Purchase, type Reversal, type RewardEffect } from './reversal-form';

const record = (level: number, referrerId: string, overrides: Partial<Conversion> = {}): Conversion => ({
  id: `c${level}`,
  conversionId: 'conv_1',
  referralId: `ref_${referrerId}`,
  referralCode: `${referrerId.toUpperCase()}1`,
  originalReferralCode: 'CARL1',
  referrerId,
  refereeId: 'dana',
  status: 'CONVERTED',
  rewardAmount: level === 1 ? 6 : 3,
  level,
  amount: 60,
  reversedAmount: 20,
  currency: 'USD',
  isFlagged: false,
  convertedAt: '2026-11-24T10:00:00.000Z',
  createdAt: '2026-11-24T10:00:00.000Z',
  Campaign: { id: 'cmp_1', name: 'Launch' },
  ...overrides,
});

const purchase = (overrides: Partial<Purchase> = {}): Purchase => ({
  id: 'pur_1',
  conversionId: 'conv_1',
  campaignId: 'cmp_1',
  refereeId: 'dana',
  amount: 30,
  currency: 'USD',
  externalId: 'INV-7',
  occurredAt: '2026-11-26T09:00:00.000Z',
  createdAt: '2026-11-26T09:00:00.000Z',
  reversedAmount: 0,
  status: 'ACTIVE',
  ...overrides,
});

const reversal = (overrides: Partial<Reversal> = {}): Reversal => ({
  id: 'rvs_1',
  conversionId: 'conv_1',
  purchaseId: null,
  reason: 'REFUND',
  amount: 20,
  full: false,
  note: 'One item back',
  currency: 'USD',
  rewardAmountReversed: 2,
  clawbackAmount: 0,
  createdAt: '2026-11-25T10:00:00.000Z',
  ...overrides,
});

const reward = (overrides: Partial<Reward> = {}): Reward => ({
  id: 'rwd_1',
  userId: 'carl',
  campaignId: 'cmp_1',
  referralId: 'ref_carl',
  conversionId: 'conv_1',
  side: 'REFERRER',
  level: 1,
  amount: 4,
  earnedAmount: 6,
  reversedAmount: 2,
  reversalReason: 'REFUND',
  purchaseId: null,
  availableAt: null,
  currency: 'USD',
  fulfillmentType: 'DISCOUNT_CODE',
  status: 'APPROVED',
  discountCode: null,
  expiresAt: null,
  claimedAt: null,
  redeemedAt: null,
  createdAt: '2026-11-24T10:00:00.000Z',
  cancellationNote: null,
  payoutId: null,
  paidAt: null,
  clawedBack: 0,
  ...overrides,
});

const effect = (overrides: Partial<RewardEffect>): RewardEffect => ({ reward: reward(), effect: 'REDUCED', fromAmount: 6, toAmount: 4, clawbackAmount: 0, ...overrides });

describe('a reversal form', () => {
  const conversion = record(1, 'carl');

  it('offers the sales with something left, each with what is left, the conversion first', () => {
    const sales = reversibleSales(conversion, [purchase(), purchase({ id: 'pur_2', status: 'REVERSED', reversedAmount: 30 }), purchase({ id: 'pur_3', externalId: null, reversedAmount: 12.5 })]);
    expect(sales.map((s) => [s.value, s.left])).toEqual([
      ['conversion', 40],
      ['pur_1', 30],
      ['pur_3', 17.5],
    ]);
    expect(sales[0]!.label).toBe('The conversion: $60.00, $40.00 left');
    expect(sales[1]!.label).toBe('Purchase INV-7 of 2026-11-26: $30.00, $30.00 left');
    // Reversed in full: only its purchases are left; one without an amount is reversed in full only.
    expect(reversibleSales({ ...conversion, status: 'REVERSED' }, []).length).toBe(0);
    expect(reversibleSales({ ...conversion, amount: null, reversedAmount: 0 }, [])[0]).toMatchObject({ left: null, label: 'The conversion (no amount recorded)' });
  });

  it('refuses on the field what the API would refuse, before sending', () => {
    const sales = reversibleSales(conversion, [purchase({ currency: 'JPY', amount: 3000 })]);
    const partial = { ...NEW_REVERSAL, scope: 'PARTIAL' as const, reason: 'REFUND' as const };
    expect(reversalErrors(NEW_REVERSAL, sales)).toEqual({ reason: 'Pick a reason' });
    expect(reversalErrors({ ...partial, amount: '' }, sales)).toEqual({ amount: 'Required' });
    expect(reversalErrors({ ...partial, amount: 0 }, sales)).toEqual({ amount: 'Must be more than 0' });
    expect(reversalErrors({ ...partial, amount: 40.01 }, sales)).toEqual({ amount: 'At most $40.00: what is left of the sale' });
    expect(reversalErrors({ ...partial, amount: 40 }, sales)).toEqual({});
    expect(reversalErrors({ ...partial, amount: 1.005 }, sales)).toEqual({ amount: 'At most 2 decimals' });
    // In the purchase's currency: yen have no decimals.
    expect(reversalErrors({ ...partial, sale: 'pur_1', amount: 10.5 }, sales)).toEqual({ amount: 'Must be a whole amount' });
    expect(reversalErrors({ ...partial, sale: 'pur_1', amount: 3001 }, sales)).toEqual({ amount: 'At most ¥3,000: what is left of the sale' });
    const noAmount = reversibleSales({ ...conversion, amount: null, reversedAmount: 0 }, []);
    expect(reversalErrors({ ...partial, amount: 5 }, noAmount).amount).toMatch(/only a full reversal/);
    expect(reversalErrors({ ...NEW_REVERSAL, reason: 'OTHER', note: 'x'.repeat(2001) }, sales)).toEqual({ note: 'At most 2000 characters' });
  });

  it('sends no amount for all that is left, and no purchase for the conversion’s own sale', () => {
    expect(reversalRequest({ ...NEW_REVERSAL, reason: 'CHARGEBACK', note: '  ' })).toEqual({ reason: 'CHARGEBACK' });
    expect(reversalRequest({ sale: 'pur_1', scope: 'PARTIAL', amount: 12.5, reason: 'REFUND', note: ' Broken ' })).toEqual({ reason: 'REFUND', amount: 12.5, purchaseId: 'pur_1', note: 'Broken' });
  });

  it('says what happened to each reward', () => {
    expect(effectText(effect({}))).toBe('reduced from $6.00 to $4.00');
    expect(effectText(effect({ effect: 'CANCELLED', fromAmount: 6, toAmount: 0 }))).toBe('cancelled ($6.00)');
    expect(effectText(effect({ effect: 'CLAWBACK', fromAmount: 6, toAmount: 4, clawbackAmount: 2 }))).toBe('paid already: $2.00 owed back');
    expect(effectText(effect({ effect: 'UNCHANGED', fromAmount: 3, toAmount: 3 }))).toBe('unchanged ($3.00)');
  });
});

describe("a conversion's view", () => {
  const URL = '/apps/app_1/referrals?tab=conversions&conversion=conv_1&referee=dana';
  const viewApi = () =>
    new FakeApi()
      .on('GET', '/api/v1/campaigns', { body: { campaigns: [campaign()], pagination: page(1) } })
      .on('GET', '/api/v1/conversions', { body: { conversions: [record(2, 'bea'), record(1, 'carl')], pagination: page(2) } })
      .on('GET', '/api/v1/conversions/conv_1/purchases', { body: { purchases: [purchase()], pagination: page(1) } })
      .on('GET', '/api/v1/conversions/conv_1/reversals', { body: { reversals: [reversal()], pagination: page(1) } });

  it('lists its levels, purchases and reversals; a VIEWER has no Reverse', async () => {
    renderApp(URL, { session: sessionFor('VIEWER'), api: viewApi() });
    const drawer = await screen.findByRole('dialog', { name: 'Conversion' });
    expect(await within(drawer).findByText('Level 1: carl')).toBeInTheDocument();
    expect(within(drawer).getByText('Level 2: bea')).toBeInTheDocument();
    const purchases = await within(drawer).findByRole('table', { name: 'Purchases' });
    expect(within(purchases).getAllByRole('row')[1]).toHaveTextContent(/\$30\.00.*2026-11-26.*INV-7/);
    const reversals = await within(drawer).findByRole('table', { name: 'Reversals' });
    expect(within(reversals).getAllByRole('row')[1]).toHaveTextContent(/\$20\.00 · refund\s*the conversion\s*partial\s*\$2\.00 taken back\s*One item back/);
    expect(within(drawer).getByText('$40.00')).toBeInTheDocument();
    expect(within(drawer).queryByRole('button', { name: 'Reverse' })).toBeNull();
  });

  it('reverses part of the sale: checks the amount against what is left, sends it with a key, and shows what happened to each reward', async () => {
    const api = viewApi().on('POST', '/api/v1/conversions/conv_1/reversals', {
      status: 201,
      body: {
        reversal: reversal({ id: 'rvs_2', amount: 15, note: 'Late refund', rewardAmountReversed: 1.5 }),
        conversion: record(1, 'carl', { reversedAmount: 35 }),
        rewards: [effect({ fromAmount: 4, toAmount: 2.5 }), effect({ reward: reward({ id: 'rwd_2', userId: 'bea', level: 2 }), effect: 'UNCHANGED', fromAmount: 3, toAmount: 3 })],
      },
    });
    renderApp(URL, { session: sessionFor('MANAGER'), api });
    const user = userEvent.setup();
    const drawer = await screen.findByRole('dialog', { name: 'Conversion' });
    await waitFor(() => expect(within(drawer).getByRole('button', { name: 'Reverse' })).toBeEnabled());
    await user.click(within(drawer).getByRole('button', { name: 'Reverse' }));
    const modal = await screen.findByRole('dialog', { name: 'Reverse a sale' });
    expect(within(modal).getByText('All that is left of the sale: $40.00.')).toBeInTheDocument();
    await user.click(within(modal).getByText('Partial'));
    const amount = within(modal).getByRole('textbox', { name: 'Amount' });
    await user.type(amount, '45');
    await user.click(within(modal).getByRole('button', { name: 'Reverse part of the sale' }));
    expect(await within(modal).findByText('At most $40.00: what is left of the sale', { selector: '.mantine-InputWrapper-error' })).toBeInTheDocument();
    expect(within(modal).getByText('Pick a reason')).toBeInTheDocument();
    expect(api.sent('POST', '/api/v1/conversions/conv_1/reversals')).toHaveLength(0);

    await user.clear(amount);
    await user.type(amount, '15');
    await user.click(within(modal).getByRole('combobox', { name: 'Reason' }));
    await user.click(await screen.findByRole('option', { name: 'Refund' }));
    await user.type(within(modal).getByRole('textbox', { name: 'Note' }), 'Late refund');
    const readsBefore = api.sent('GET', '/api/v1/conversions/conv_1/reversals').length;
    await user.click(within(modal).getByRole('button', { name: 'Reverse part of the sale' }));

    const outcome = await screen.findByRole('dialog', { name: 'What the reversal did' });
    const sent = api.sent('POST', '/api/v1/conversions/conv_1/reversals');
    expect(sent.map((r) => r.body)).toEqual([{ reason: 'REFUND', amount: 15, note: 'Late refund' }]);
    expect(sent[0]!.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f]{32}$/);
    expect(within(outcome).getByRole('status')).toHaveTextContent('$15.00 of the conversion\'s sale (refund): $1.50 of reward value taken back.');
    const effects = within(within(outcome).getByRole('table', { name: 'What happened to each reward' })).getAllByRole('row').slice(1);
    expect(effects.map((row) => row.textContent)).toEqual(['carlreferrer · 1reduced from $4.00 to $2.50', 'beareferrer · 2unchanged ($3.00)']);
    // The conversion's reads (and every figure) are read again.
    await waitFor(() => expect(api.sent('GET', '/api/v1/conversions/conv_1/reversals').length).toBeGreaterThan(readsBefore));
    await user.click(within(outcome).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'What the reversal did' })).toBeNull());
  });

  it("shows the API's refusal in the form, and sends a new key for the next try", async () => {
    const api = viewApi().on('POST', '/api/v1/conversions/conv_1/reversals', apiError(422, 'REVERSAL_EXCEEDS_SALE', 'Only 0 USD of this sale is left to reverse.'));
    renderApp(URL, { session: sessionFor('OWNER'), api });
    const user = userEvent.setup();
    const drawer = await screen.findByRole('dialog', { name: 'Conversion' });
    await waitFor(() => expect(within(drawer).getByRole('button', { name: 'Reverse' })).toBeEnabled());
    await user.click(within(drawer).getByRole('button', { name: 'Reverse' }));
    const modal = await screen.findByRole('dialog', { name: 'Reverse a sale' });
    await user.click(within(modal).getByRole('combobox', { name: 'Sale' }));
    await user.click(await screen.findByRole('option', { name: 'Purchase INV-7 of 2026-11-26: $30.00, $30.00 left' }));
    await user.click(within(modal).getByRole('combobox', { name: 'Reason' }));
    await user.click(await screen.findByRole('option', { name: 'Chargeback' }));
    await user.click(within(modal).getByRole('button', { name: 'Reverse in full' }));
    expect(await within(modal).findByRole('alert')).toHaveTextContent('Only 0 USD of this sale is left to reverse.');
    await user.click(within(modal).getByRole('button', { name: 'Reverse in full' }));
    await waitFor(() => expect(api.sent('POST', '/api/v1/conversions/conv_1/reversals')).toHaveLength(2));
    const [first, second] = api.sent('POST', '/api/v1/conversions/conv_1/reversals');
    expect(first!.body).toEqual({ reason: 'CHARGEBACK', purchaseId: 'pur_1' });
    // A refusal is kept under its key by the API: the retry is a new operation.
    expect(second!.headers.get('Idempotency-Key')).not.toBe(first!.headers.get('Idempotency-Key'));
  });
});
