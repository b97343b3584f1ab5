import {
  chargeKeys,
  currencyCode,
  disputePortion,
  keysLinkedBy,
  majorUnits,
  mapStripeEvent,
  refundPortion,
  stripeOperationKey,
  type StripeIntent,
} from './stripe-event-mapping';

const event = (type: string, object: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  id: 'evt_1',
  object: 'event',
  type,
  created: 1_790_000_000,
  livemode: false,
  data: { object },
  ...extra,
});

const intentOf = (type: string, object: Record<string, unknown>): StripeIntent => mapStripeEvent(event(type, object)).intent;

const session = (fields: Record<string, unknown> = {}) => ({
  id: 'cs_1',
  object: 'checkout.session',
  mode: 'payment',
  payment_status: 'paid',
  status: 'complete',
  client_reference_id: 'CODE1234',
  metadata: {},
  customer: 'cus_1',
  customer_details: { email: 'buyer@example.com' },
  amount_total: 4999,
  currency: 'usd',
  payment_intent: 'pi_1',
  invoice: null,
  subscription: null,
  ...fields,
});

describe('the Stripe event mapping', () => {
  describe('checkouts', () => {
    it('reads a paid checkout with a code in client_reference_id as a conversion of its customer, in major units and upper-case currency', () => {
      expect(intentOf('checkout.session.completed', session())).toEqual({
        kind: 'checkout',
        sessionId: 'cs_1',
        referralCode: 'CODE1234',
        refereeId: 'cus_1',
        customerId: 'cus_1',
        email: 'buyer@example.com',
        amountMinor: 4999,
        currency: 'USD',
        paymentIntentId: 'pi_1',
        invoiceId: null,
        subscriptionId: null,
      });
    });

    it('prefers metadata.referralCode (trimmed) to client_reference_id, and metadata.refereeId to the customer', () => {
      const intent = intentOf('checkout.session.completed', session({ metadata: { referralCode: ' META5678 ', refereeId: 'user-42' } }));
      expect(intent).toMatchObject({ kind: 'checkout', referralCode: 'META5678', refereeId: 'user-42', customerId: 'cus_1' });
    });

    it('takes expandable fields as ids or objects (a subscription checkout names its first invoice and subscription)', () => {
      const intent = intentOf(
        'checkout.session.completed',
        session({ mode: 'subscription', payment_intent: null, customer: { id: 'cus_9' }, invoice: { id: 'in_1' }, subscription: 'sub_1' }),
      );
      expect(intent).toMatchObject({ customerId: 'cus_9', refereeId: 'cus_9', paymentIntentId: null, invoiceId: 'in_1', subscriptionId: 'sub_1' });
    });

    it('maps async_payment_succeeded like completed, and ignores a checkout not paid yet', () => {
      expect(intentOf('checkout.session.async_payment_succeeded', session())).toMatchObject({ kind: 'checkout', sessionId: 'cs_1' });
      expect(intentOf('checkout.session.completed', session({ payment_status: 'unpaid' }))).toMatchObject({ kind: 'ignore', reasonCode: 'NOT_PAID' });
      // A free checkout (a trial) converts: nothing to wait for.
      expect(intentOf('checkout.session.completed', session({ payment_status: 'no_payment_required', amount_total: 0 }))).toMatchObject({ kind: 'checkout', amountMinor: 0 });
    });

    it('ignores a checkout without a code, and cannot match one whose code or referee is no id', () => {
      expect(intentOf('checkout.session.completed', session({ client_reference_id: null }))).toMatchObject({ kind: 'ignore', reasonCode: 'NO_REFERRAL_CODE' });
      expect(intentOf('checkout.session.completed', session({ client_reference_id: '   ' }))).toMatchObject({ kind: 'ignore', reasonCode: 'NO_REFERRAL_CODE' });
      expect(intentOf('checkout.session.completed', session({ client_reference_id: 'x'.repeat(129) }))).toMatchObject({ kind: 'unmatched', reasonCode: 'UNKNOWN_REFERRAL_CODE' });
      expect(intentOf('checkout.session.completed', session({ metadata: { refereeId: 'a\u0001b' } }))).toMatchObject({ kind: 'unmatched', reasonCode: 'INVALID_REFEREE' });
    });

    it('has no referee without metadata.refereeId and customer, and no amount without amount_total', () => {
      expect(intentOf('checkout.session.completed', session({ customer: null, amount_total: null, currency: null }))).toMatchObject({
        kind: 'checkout',
        refereeId: null,
        amountMinor: null,
        currency: null,
      });
    });

    it('ignores a currency that is no ISO 4217 code', () => {
      expect(intentOf('checkout.session.completed', session({ currency: 'us' }))).toMatchObject({ kind: 'ignore', reasonCode: 'UNKNOWN_CURRENCY' });
    });
  });

  describe('invoices', () => {
    const invoice = (fields: Record<string, unknown> = {}) => ({
      id: 'in_2',
      object: 'invoice',
      customer: 'cus_1',
      billing_reason: 'subscription_cycle',
      amount_paid: 1500,
      currency: 'eur',
      status_transitions: { paid_at: 1_790_000_100 },
      parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_1' } },
      ...fields,
    });

    it('reads a renewal: customer, subscription (under parent), amount, when it was paid', () => {
      expect(intentOf('invoice.paid', invoice())).toEqual({
        kind: 'invoice-paid',
        invoiceId: 'in_2',
        customerId: 'cus_1',
        subscriptionId: 'sub_1',
        subscriptionCreate: false,
        amountMinor: 1500,
        currency: 'EUR',
        paidAt: 1_790_000_100,
        paymentIntentId: null,
        chargeId: null,
      });
    });

    it('reads the subscription, payment intent and charge of older API versions, and of included payments', () => {
      expect(intentOf('invoice.paid', invoice({ parent: null, subscription: 'sub_old', payment_intent: 'pi_old', charge: { id: 'ch_old' } }))).toMatchObject({
        subscriptionId: 'sub_old',
        paymentIntentId: 'pi_old',
        chargeId: 'ch_old',
      });
      const payments = { data: [{ payment: { type: 'payment_intent', payment_intent: 'pi_new' } }] };
      expect(intentOf('invoice.paid', invoice({ payments }))).toMatchObject({ paymentIntentId: 'pi_new', chargeId: null });
    });

    it("marks a subscription's first invoice, and falls back on the invoice's creation for when it was paid", () => {
      expect(intentOf('invoice.paid', invoice({ billing_reason: 'subscription_create', status_transitions: {}, created: 1_790_000_050 }))).toMatchObject({
        subscriptionCreate: true,
        paidAt: 1_790_000_050,
      });
    });

    it('ignores an invoice without a customer', () => {
      expect(intentOf('invoice.paid', invoice({ customer: null }))).toMatchObject({ kind: 'ignore', reasonCode: 'NO_CUSTOMER' });
    });

    it('reads invoice_payment.paid as the payment of its invoice, and ignores one paid out of band', () => {
      expect(intentOf('invoice_payment.paid', { id: 'inpay_1', invoice: 'in_2', payment: { type: 'payment_intent', payment_intent: 'pi_2' } })).toEqual({
        kind: 'invoice-payment',
        invoiceId: 'in_2',
        paymentIntentId: 'pi_2',
        chargeId: null,
      });
      expect(intentOf('invoice_payment.paid', { id: 'inpay_1', invoice: 'in_2', payment: { type: 'out_of_band_payment' } })).toMatchObject({ kind: 'ignore', reasonCode: 'NO_PAYMENT' });
    });
  });

  describe('refunds and disputes', () => {
    it('reads the charge of a refund: its amount and refunded total so far', () => {
      expect(intentOf('charge.refunded', { id: 'ch_1', amount: 4999, amount_refunded: 1000, currency: 'usd', payment_intent: 'pi_1' })).toEqual({
        kind: 'refund',
        chargeId: 'ch_1',
        paymentIntentId: 'pi_1',
        invoiceId: null,
        amountMinor: 4999,
        refundedMinor: 1000,
        currency: 'USD',
      });
    });

    it('reads a dispute of a charge', () => {
      expect(intentOf('charge.dispute.created', { id: 'dp_1', charge: 'ch_1', payment_intent: { id: 'pi_1' }, amount: 4999, currency: 'usd', reason: 'fraudulent' })).toEqual({
        kind: 'dispute',
        disputeId: 'dp_1',
        chargeId: 'ch_1',
        paymentIntentId: 'pi_1',
        amountMinor: 4999,
        currency: 'USD',
        disputeReason: 'fraudulent',
      });
    });

    it('ignores what it cannot read rather than failing', () => {
      expect(intentOf('charge.refunded', { id: 'ch_1', currency: 'usd' })).toMatchObject({ kind: 'ignore', reasonCode: 'NOT_UNDERSTOOD' });
      expect(intentOf('charge.dispute.created', { id: 'dp_1', amount: 10, currency: 'usd' })).toMatchObject({ kind: 'ignore', reasonCode: 'NOT_UNDERSTOOD' });
      expect(mapStripeEvent({ id: 'evt_2', type: 'invoice.paid', data: null }).intent).toMatchObject({ kind: 'ignore', reasonCode: 'NOT_UNDERSTOOD' });
    });
  });

  it('ignores every other type, and reads the envelope', () => {
    const mapped = mapStripeEvent(event('customer.created', { id: 'cus_1' }, { livemode: true }));
    expect(mapped).toEqual({
      id: 'evt_1',
      type: 'customer.created',
      livemode: true,
      createdAt: new Date(1_790_000_000 * 1000),
      intent: { kind: 'ignore', reasonCode: 'EVENT_TYPE_NOT_MAPPED', reason: 'Events of type customer.created do not concern the referral program.' },
    });
    // A type named like an object's own property is a type like any other.
    expect(mapStripeEvent(event('constructor', {})).intent).toMatchObject({ reasonCode: 'EVENT_TYPE_NOT_MAPPED' });
  });

  describe('the keys a sale is known by', () => {
    it('links the customer, subscription, payment intent and first invoice of a checkout', () => {
      const intent = intentOf('checkout.session.completed', session({ invoice: 'in_1', subscription: 'sub_1' }));
      expect(keysLinkedBy(intent)).toEqual(['customer:cus_1', 'subscription:sub_1', 'payment_intent:pi_1', 'invoice:in_1']);
    });

    it('links the invoice and its payment of a paid invoice, and the payment of an invoice payment', () => {
      expect(keysLinkedBy(intentOf('invoice.paid', { id: 'in_2', customer: 'cus_1', currency: 'usd', payment_intent: 'pi_2', charge: 'ch_2' }))).toEqual([
        'invoice:in_2',
        'payment_intent:pi_2',
        'charge:ch_2',
      ]);
      expect(keysLinkedBy(intentOf('invoice_payment.paid', { invoice: 'in_2', payment: { charge: 'ch_2' } }))).toEqual(['charge:ch_2']);
      expect(keysLinkedBy(intentOf('charge.refunded', { id: 'ch_1', amount: 1, amount_refunded: 1, currency: 'usd' }))).toEqual([]);
    });

    it('finds the sale of a refunded or disputed charge by its payment intent, then its invoice, then the charge', () => {
      const refund = intentOf('charge.refunded', { id: 'ch_1', amount: 1, amount_refunded: 1, currency: 'usd', payment_intent: 'pi_1', invoice: 'in_1' });
      expect(refund.kind === 'refund' && chargeKeys(refund)).toEqual(['payment_intent:pi_1', 'invoice:in_1', 'charge:ch_1']);
      const dispute = intentOf('charge.dispute.created', { id: 'dp_1', charge: 'ch_1', amount: 1, currency: 'usd' });
      expect(dispute.kind === 'dispute' && chargeKeys(dispute)).toEqual(['charge:ch_1']);
    });
  });

  describe('amounts', () => {
    it("converts minor units with the currency's digits", () => {
      expect(majorUnits(4999, 'USD')).toBe(49.99);
      expect(majorUnits(500, 'JPY')).toBe(500);
      expect(majorUnits(12345, 'KWD')).toBe(12.345);
      expect(majorUnits(10, 'EUR')).toBe(0.1);
      expect(majorUnits(0, 'USD')).toBe(0);
    });

    it('takes ISO 4217 codes in any case and nothing else', () => {
      expect([currencyCode('usd'), currencyCode('JPY'), currencyCode('us'), currencyCode('u$d'), currencyCode(5), currencyCode(null)]).toEqual(['USD', 'JPY', null, null, null, null]);
    });

    it("reverses what a refund's total adds to what was applied, whole once the charge is refunded whole", () => {
      expect(refundPortion({ amountMinor: 10_000, refundedMinor: 3000 }, 0)).toEqual({ amountMinor: 3000, full: false });
      expect(refundPortion({ amountMinor: 10_000, refundedMinor: 10_000 }, 3000)).toEqual({ amountMinor: 7000, full: true });
      // A repeat, or an older total after a newer one: nothing.
      expect(refundPortion({ amountMinor: 10_000, refundedMinor: 3000 }, 3000)).toBeNull();
      expect(refundPortion({ amountMinor: 10_000, refundedMinor: 3000 }, 10_000)).toBeNull();
    });

    it('reverses a sale whole when the dispute is for all that is left of it (or it has no amount)', () => {
      expect(disputePortion(4999, 4999)).toEqual({ amountMinor: 4999, full: true });
      expect(disputePortion(4999, 3000)).toEqual({ amountMinor: 4999, full: true });
      expect(disputePortion(1000, 4999)).toEqual({ amountMinor: 1000, full: false });
      expect(disputePortion(1000, null)).toEqual({ amountMinor: 1000, full: true });
    });
  });

  it('derives one operation key per thing, app and kind: 32 hex characters', () => {
    const key = stripeOperationKey('checkout', 'app_1', 'cs_1');
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(stripeOperationKey('checkout', 'app_1', 'cs_1')).toBe(key);
    expect(new Set([key, stripeOperationKey('checkout', 'app_2', 'cs_1'), stripeOperationKey('refund', 'app_1', 'cs_1')]).size).toBe(3);
  });
});
