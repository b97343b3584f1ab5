import { currencyDigits } from '@ris/contracts';
import { isDomainError } from '@ris/domain-errors';
import { SerialByKey } from '@ris/mongo';
import type { ConversionRepository } from '../../conversions/conversion.repository';
import type { ConversionRecorder } from '../../conversions/record-conversion';
import type { PurchaseRepository } from '../../purchases/purchase.repository';
import type { PurchaseRecorder } from '../../purchases/record-purchase';
import type { ReferralLookup } from '../../referrals/referral-lookup';
import type { ConversionReversals } from '../../reversals/reverse-conversion';
import type { ChargeRefundEntry } from './charge-refund.model';
import type { ChargeRefundRepository } from './charge-refund.repository';
import { describeKey, saleKey } from './sale-keys';
import type { SaleLinkDoc } from './sale-link.model';
import type { SaleTarget, SaleLinkRepository } from './sale-link.repository';
import {
  chargeKeys,
  disputePortion,
  keysLinkedBy,
  majorUnits,
  paymentKeys,
  refundPortion,
  stripeOperationKey,
  type CheckoutIntent,
  type DisputeIntent,
  type InvoicePaidIntent,
  type InvoicePaymentIntent,
  type RefundIntent,
} from './stripe-event-mapping';
import type { StripeEventDoc } from './stripe-event.model';

/** What applying an event came to: a final status and what it made or found, with the sale keys it linked; or a wait for one key. */
export type Applied =
  | {
      status: 'MATCHED' | 'UNMATCHED' | 'IGNORED' | 'REFUSED';
      reasonCode: string;
      reason: string;
      conversionId: string | null;
      purchaseId: string | null;
      reversalId: string | null;
      /** The sale keys it linked: the events waiting for them are woken. */
      linked: string[];
    }
  | { status: 'WAITING'; key: string; reasonCode: string; reason: string };

type Made = { conversionId?: string; purchaseId?: string | null; reversalId?: string };

const settled = (status: 'MATCHED' | 'UNMATCHED' | 'IGNORED' | 'REFUSED', reasonCode: string, reason: string, made: Made = {}, linked: string[] = []): Applied => ({
  status,
  reasonCode,
  reason,
  conversionId: made.conversionId ?? null,
  purchaseId: made.purchaseId ?? null,
  reversalId: made.reversalId ?? null,
  linked,
});

const waiting = (key: string, reasonCode: string, reason: string): Applied => ({ status: 'WAITING', key, reasonCode, reason });

/**
 * A refusal of the program's own modules that is final for this event (a
 * rule said no: its code becomes the event's reason); null for one that
 * passes (CONFLICT: a sale still being finished; UNAVAILABLE), which is
 * thrown on so Stripe retries the event.
 */
function finalRefusal(err: unknown): Applied | null {
  if (!isDomainError(err)) return null;
  if (err.kind === 'unavailable' || (err.kind === 'conflict' && err.reason === 'CONFLICT')) return null;
  return settled('REFUSED', err.reason, err.message);
}

/** Runs a call of the program's modules: its refusal, when final, as the event's outcome; anything else thrown on. */
async function refusedOr(call: () => Promise<Applied>): Promise<Applied> {
  try {
    return await call();
  } catch (err) {
    const refusal = finalRefusal(err);
    if (refusal) return refusal;
    throw err;
  }
}

/** `value` in whole minor units of the currency. */
const minorUnits = (value: number, currency: string) => Math.round(value * 10 ** currencyDigits(currency));

/**
 * Applies what a Stripe event asks (stripe-event-mapping.ts) through the
 * service's own modules, in process: a checkout records a conversion
 * (ConversionRecorder), a renewal's invoice a purchase (PurchaseRecorder),
 * a refund or dispute a reversal (ConversionReversals). Every call is
 * idempotent by what the event is (the checkout session, the invoice, the
 * refund event, the dispute), so a retry of the event, or its application
 * after a crash, finds what the first one made. What it needs but is not
 * there yet (the checkout of a renewal's customer, the sale of a refunded
 * charge) makes it WAITING for that sale key.
 */
export class StripeEventApplier {
  /** One refund claim of a charge at a time in this process (FerretDB's conditional update is a read and a write). */
  private readonly chargeClaims = new SerialByKey();

  constructor(
    private readonly lookup: ReferralLookup,
    private readonly recorder: ConversionRecorder,
    private readonly purchases: PurchaseRecorder,
    private readonly reversals: ConversionReversals,
    private readonly conversions: ConversionRepository,
    private readonly purchaseStore: PurchaseRepository,
    private readonly links: SaleLinkRepository,
    private readonly refunds: ChargeRefundRepository,
  ) {}

  async apply(record: StripeEventDoc): Promise<Applied> {
    const { intent } = record;
    switch (intent.kind) {
      case 'ignore':
        return settled('IGNORED', intent.reasonCode, intent.reason);
      case 'unmatched':
        return settled('UNMATCHED', intent.reasonCode, intent.reason);
      case 'checkout':
        return this.checkout(record, intent);
      case 'invoice-paid':
        return this.invoicePaid(record, intent);
      case 'invoice-payment':
        return this.invoicePayment(record, intent);
      case 'refund':
        return this.refund(record, intent);
      case 'dispute':
        return this.dispute(record, intent);
    }
  }

  /** Links each key to the sale (the first link of a key stays) and answers the keys. */
  private async link(record: StripeEventDoc, keys: string[], target: SaleTarget): Promise<string[]> {
    const event = { id: record.stripeEventId, createdAt: record.createdAt };
    await Promise.all(keys.map((key) => this.links.link(record.appId, key, target, event)));
    return keys;
  }

  /** A checkout with a referral code of the integration's campaign: the referee's conversion, as POST /conversions records it. */
  private async checkout(record: StripeEventDoc, intent: CheckoutIntent): Promise<Applied> {
    const { appId } = record;
    const codeKey = await this.lookup.codeKey(appId, intent.referralCode);
    if (!codeKey) return settled('UNMATCHED', 'UNKNOWN_REFERRAL_CODE', `No referral code ${intent.referralCode} in this app.`);
    if (codeKey.campaignId !== record.campaignId) {
      return settled('UNMATCHED', 'OTHER_CAMPAIGN', `Referral code ${intent.referralCode} is of campaign ${codeKey.campaignId}, not of the integration's ${record.campaignId}.`);
    }
    if (intent.refereeId === null) return settled('UNMATCHED', 'NO_REFEREE', 'The checkout names no referee: neither metadata.refereeId nor a customer.');
    const { refereeId, currency } = intent;
    return refusedOr(async () => {
      const outcome = await this.recorder.record(appId, {
        referralCode: intent.referralCode,
        refereeId,
        amount: intent.amountMinor === null || currency === null ? null : majorUnits(intent.amountMinor, currency),
        currency,
        metadata: { stripeCheckoutSessionId: intent.sessionId, stripeEventId: record.stripeEventId },
        context: { ip: null, userAgent: null, deviceId: null, email: intent.email },
        // Both events of a delayed payment's checkout (completed, then async_payment_succeeded) are one conversion.
        operationKey: stripeOperationKey('checkout', appId, intent.sessionId),
      });
      const conversionId = outcome.root.conversionId;
      // The checkout's customer, subscription, payment intent and first invoice: what its later events name.
      const linked = await this.link(record, keysLinkedBy(intent), { conversionId, purchaseId: null });
      return settled('MATCHED', 'CONVERSION_RECORDED', `Conversion ${conversionId} of ${refereeId} through referral code ${intent.referralCode}.`, { conversionId }, linked);
    });
  }

  /**
   * A paid invoice of a converted customer: the checkout's own first
   * invoice (named by the session's `invoice`, or billing_reason
   * subscription_create of the checkout's subscription) is the
   * conversion's sale, counted once: its payment is linked to the
   * conversion; any later invoice of a subscription is a purchase.
   */
  private async invoicePaid(record: StripeEventDoc, intent: InvoicePaidIntent): Promise<Applied> {
    const { appId } = record;
    const payment = paymentKeys(intent);
    const invoiceKey = saleKey.invoice(intent.invoiceId);
    const known = await this.links.firstOf(appId, [invoiceKey]);
    if (known && known.purchaseId === null) return this.firstInvoice(record, intent, known.conversionId, payment);
    if (known) {
      // Applied before (a retry after its links were made): the purchase is what it was.
      return settled('MATCHED', 'PURCHASE_RECORDED', `Purchase ${known.purchaseId} of conversion ${known.conversionId}.`, known, await this.link(record, payment, known));
    }
    const customerKey = saleKey.customer(intent.customerId);
    const [customer, subscription] = await Promise.all([
      this.links.firstOf(appId, [customerKey]),
      intent.subscriptionId ? this.links.firstOf(appId, [saleKey.subscription(intent.subscriptionId)]) : null,
    ]);
    if (!customer) {
      return waiting(customerKey, 'WAITING_FOR_CUSTOMER', `No conversion of customer ${intent.customerId} yet: applied when its checkout arrives.`);
    }
    if (intent.subscriptionCreate && subscription) return this.firstInvoice(record, intent, subscription.conversionId, [invoiceKey, ...payment]);
    if (!intent.subscriptionId) return settled('IGNORED', 'NOT_A_SUBSCRIPTION', `Invoice ${intent.invoiceId} is not of a subscription: only renewals are purchases.`);
    if (intent.amountMinor <= 0) return settled('IGNORED', 'NOTHING_PAID', `Invoice ${intent.invoiceId} paid nothing (a trial, or a credit): no purchase.`);
    return refusedOr(async () => {
      const { purchase } = await this.purchases.record(appId, {
        conversionId: customer.conversionId,
        amount: majorUnits(intent.amountMinor, intent.currency),
        currency: intent.currency,
        // The invoice is the purchase: the same invoice again, for ever, is the same purchase.
        externalId: intent.invoiceId,
        occurredAt: await this.paidAt(appId, customer, intent.paidAt),
        operationKey: '',
      });
      const target = { conversionId: purchase.conversionId, purchaseId: purchase._id };
      const linked = await this.link(record, [invoiceKey, ...payment], target);
      return settled('MATCHED', 'PURCHASE_RECORDED', `Purchase ${purchase._id} of conversion ${purchase.conversionId}: invoice ${intent.invoiceId}.`, target, linked);
    });
  }

  /**
   * When a renewal was paid, for its recurring window: Stripe's time (to
   * the second). One paid after the checkout but before its conversion was
   * recorded (in the same second, or Stripe delivered the checkout late)
   * counts from the conversion; one paid before the checkout is what it is
   * (OCCURRED_AT_INVALID: not a purchase of this conversion).
   */
  private async paidAt(appId: string, customer: SaleLinkDoc, paidAt: number): Promise<Date> {
    const paid = new Date(paidAt * 1000);
    if (paid < customer.stripeEventCreatedAt) return paid;
    const convertedAt = (await this.conversions.findById(appId, customer.conversionId))?.convertedAt;
    return convertedAt && convertedAt > paid ? convertedAt : paid;
  }

  private async firstInvoice(record: StripeEventDoc, intent: InvoicePaidIntent, conversionId: string, keys: string[]): Promise<Applied> {
    const linked = await this.link(record, keys, { conversionId, purchaseId: null });
    return settled('MATCHED', 'FIRST_INVOICE', `Invoice ${intent.invoiceId} is the first of conversion ${conversionId}'s checkout: its sale, counted once.`, { conversionId }, linked);
  }

  /** The payment of an invoice (API versions that send it apart): linked to the invoice's sale, for its refunds and disputes. */
  private async invoicePayment(record: StripeEventDoc, intent: InvoicePaymentIntent): Promise<Applied> {
    const invoiceKey = saleKey.invoice(intent.invoiceId);
    const sale = await this.links.firstOf(record.appId, [invoiceKey]);
    if (!sale) return waiting(invoiceKey, 'WAITING_FOR_INVOICE', `No conversion or purchase of invoice ${intent.invoiceId} yet: linked when it is recorded.`);
    const linked = await this.link(record, paymentKeys(intent), sale);
    return settled('MATCHED', 'PAYMENT_LINKED', `The payment of invoice ${intent.invoiceId} belongs to ${sale.purchaseId ? `purchase ${sale.purchaseId}` : `conversion ${sale.conversionId}`}.`, sale, linked);
  }

  /** A refund of a charge: a REFUND reversal of what its refunded total adds, of the sale the charge paid for. */
  private async refund(record: StripeEventDoc, intent: RefundIntent): Promise<Applied> {
    const keys = chargeKeys(intent);
    const sale = await this.links.firstOf(record.appId, keys);
    if (!sale) return waiting(keys[0], 'WAITING_FOR_PAYMENT', `No conversion or purchase paid through ${describeKey(keys[0])} yet: applied when it is recorded.`);
    const entry = await this.claimRefund(record, intent);
    if (!entry) {
      return settled('IGNORED', 'NOTHING_NEWLY_REFUNDED', `Charge ${intent.chargeId} is refunded ${majorUnits(intent.refundedMinor, intent.currency)} ${intent.currency} in all, which earlier events reversed already.`, sale);
    }
    const amount = majorUnits(entry.amountMinor, intent.currency);
    return this.reverse(record, sale, {
      reason: 'REFUND',
      amount: entry.full ? null : amount,
      note: `Stripe refund of ${amount} ${intent.currency} on charge ${intent.chargeId} (event ${record.stripeEventId})`,
      operationKey: stripeOperationKey('refund', record.appId, record.stripeEventId),
      reasonCode: 'REFUND_REVERSED',
    });
  }

  /**
   * The event's part of the charge's refunds, claimed once: its entry when
   * an earlier try claimed it already, a new one for what its total adds,
   * or null when it adds nothing (a repeat, or an older total arriving
   * after a newer one).
   */
  private claimRefund(record: StripeEventDoc, intent: RefundIntent): Promise<ChargeRefundEntry | null> {
    const { appId, stripeEventId } = record;
    return this.chargeClaims.run(`${appId}:${intent.chargeId}`, async () => {
      for (;;) {
        const applied = await this.refunds.ofCharge(appId, intent.chargeId);
        const earlier = applied?.entries.find((e) => e.stripeEventId === stripeEventId);
        if (earlier) return earlier;
        const portion = refundPortion(intent, applied?.refundedMinor ?? 0);
        if (!portion) return null;
        const entry = { stripeEventId, ...portion };
        if (await this.refunds.claim(appId, intent.chargeId, applied?.refundedMinor ?? null, intent.refundedMinor, entry)) return entry;
        // Another replica claimed a total of the charge meanwhile: read it again.
      }
    });
  }

  /** A dispute of a charge: a CHARGEBACK reversal of the sale the charge paid for (all that is left, when it disputes that much). */
  private async dispute(record: StripeEventDoc, intent: DisputeIntent): Promise<Applied> {
    const keys = chargeKeys(intent);
    const sale = await this.links.firstOf(record.appId, keys);
    if (!sale) return waiting(keys[0], 'WAITING_FOR_PAYMENT', `No conversion or purchase paid through ${describeKey(keys[0])} yet: applied when it is recorded.`);
    const portion = disputePortion(intent.amountMinor, await this.remainingMinor(record.appId, sale, intent.currency));
    const amount = majorUnits(intent.amountMinor, intent.currency);
    return this.reverse(record, sale, {
      reason: 'CHARGEBACK',
      amount: portion.full ? null : amount,
      note: `Stripe dispute ${intent.disputeId} of ${amount} ${intent.currency}${intent.disputeReason ? ` (${intent.disputeReason})` : ''}`,
      // One chargeback per dispute, whichever of its events carried it.
      operationKey: stripeOperationKey('dispute', record.appId, intent.disputeId),
      reasonCode: 'DISPUTE_REVERSED',
    });
  }

  /** What is left of a sale, in minor units; null when it was recorded without an amount (only a full reversal applies). */
  private async remainingMinor(appId: string, sale: SaleTarget, currency: string): Promise<number | null> {
    const recorded = sale.purchaseId ? await this.purchaseStore.findById(appId, sale.purchaseId) : await this.conversions.findById(appId, sale.conversionId);
    if (!recorded || recorded.amount === null) return null;
    return minorUnits(recorded.amount, currency) - minorUnits(recorded.reversedAmount ?? 0, currency);
  }

  private reverse(
    record: StripeEventDoc,
    sale: SaleTarget,
    reversal: { reason: 'REFUND' | 'CHARGEBACK'; amount: number | null; note: string; operationKey: string; reasonCode: string },
  ): Promise<Applied> {
    return refusedOr(async () => {
      const outcome = await this.reversals.reverse(record.appId, {
        conversionId: sale.conversionId,
        purchaseId: sale.purchaseId,
        reason: reversal.reason,
        amount: reversal.amount,
        note: reversal.note,
        operationKey: reversal.operationKey,
      });
      const made = { ...sale, reversalId: outcome.reversal._id };
      const of = sale.purchaseId ? `purchase ${sale.purchaseId}` : `conversion ${sale.conversionId}`;
      return settled('MATCHED', reversal.reasonCode, `Reversal ${outcome.reversal._id} (${reversal.reason}, ${outcome.reversal.full ? 'all that was left' : outcome.reversal.amount}) of ${of}.`, made);
    });
  }
}
