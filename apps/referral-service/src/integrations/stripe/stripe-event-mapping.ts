import { createHash } from 'node:crypto';
import { currencyDigits } from '@ris/contracts';
import { keysOf, saleKey } from './sale-keys';

/*
 * What a Stripe event asks of the referral program (docs/product-decisions.md
 * §4.18), read from the event alone: pure, so every rule of the mapping is
 * a unit test. The applier (apply-stripe-event.ts) then looks up what the
 * intent names and calls the service's own conversion, purchase and
 * reversal modules.
 *
 * Stripe's objects change shape across API versions (an invoice's
 * subscription moved under `parent`, its payment intent under `payments`,
 * a charge lost its `invoice`), and an expandable field is an id or the
 * object: every field is read defensively, in each of its shapes.
 */

/** Nothing to do, final: the reason says why. */
export interface IgnoreIntent {
  kind: 'ignore';
  reasonCode: string;
  reason: string;
}

/** Names nothing the app has, and nothing will make it match: the reason says why. */
export interface UnmatchedIntent {
  kind: 'unmatched';
  reasonCode: string;
  reason: string;
}

/** checkout.session.completed (paid) or checkout.session.async_payment_succeeded: a conversion. */
export interface CheckoutIntent {
  kind: 'checkout';
  sessionId: string;
  referralCode: string;
  /** metadata.refereeId, else the Stripe customer id; null when neither. */
  refereeId: string | null;
  customerId: string | null;
  email: string | null;
  /** amount_total in the currency's minor units; null when the session has none. */
  amountMinor: number | null;
  /** Upper-case ISO 4217; null when the session has none. */
  currency: string | null;
  paymentIntentId: string | null;
  /** The subscription's first invoice (subscription mode), or the one-off invoice Stripe made. */
  invoiceId: string | null;
  subscriptionId: string | null;
}

/** invoice.paid: a renewal (a purchase), or the checkout's own first invoice. */
export interface InvoicePaidIntent {
  kind: 'invoice-paid';
  invoiceId: string;
  customerId: string;
  subscriptionId: string | null;
  /** billing_reason subscription_create: the first invoice of a subscription. */
  subscriptionCreate: boolean;
  amountMinor: number;
  currency: string;
  /** When it was paid (unix seconds). */
  paidAt: number;
  paymentIntentId: string | null;
  chargeId: string | null;
}

/** invoice_payment.paid (API versions where an invoice's payment is an object of its own): the invoice's payment intent and charge. */
export interface InvoicePaymentIntent {
  kind: 'invoice-payment';
  invoiceId: string;
  paymentIntentId: string | null;
  chargeId: string | null;
}

/** charge.refunded: a REFUND reversal of what the charge's refunded total adds. */
export interface RefundIntent {
  kind: 'refund';
  chargeId: string;
  paymentIntentId: string | null;
  invoiceId: string | null;
  /** The charge's amount and refunded total so far, in minor units. */
  amountMinor: number;
  refundedMinor: number;
  currency: string;
}

/** charge.dispute.created: a CHARGEBACK reversal. */
export interface DisputeIntent {
  kind: 'dispute';
  disputeId: string;
  chargeId: string | null;
  paymentIntentId: string | null;
  amountMinor: number;
  currency: string;
  /** Stripe's dispute reason (fraudulent, product_not_received…). */
  disputeReason: string | null;
}

export type StripeIntent = IgnoreIntent | UnmatchedIntent | CheckoutIntent | InvoicePaidIntent | InvoicePaymentIntent | RefundIntent | DisputeIntent;

/** The event's envelope and what it asks. */
export interface MappedStripeEvent {
  id: string;
  type: string;
  livemode: boolean;
  createdAt: Date;
  intent: StripeIntent;
}

type Json = Record<string, unknown>;

const object = (value: unknown): Json | null => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null);
const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);
const whole = (value: unknown): number | null => (typeof value === 'number' && Number.isSafeInteger(value) ? value : null);
/** An expandable field's id, whether Stripe sent the id or the object. */
const idOf = (value: unknown): string | null => text(value) ?? text(object(value)?.id);

const CONTROL = '\\x00-\\x1f\\x7f-\\x9f';
/** A user id or code as the public API takes them: 1 to 128 characters, no control characters, no white space at either end. */
const USER_ID = new RegExp(`^[^\\s${CONTROL}](?:[^${CONTROL}]{0,126}[^\\s${CONTROL}])?$`, 'u');

const ignore = (reasonCode: string, reason: string): IgnoreIntent => ({ kind: 'ignore', reasonCode, reason });
const unmatched = (reasonCode: string, reason: string): UnmatchedIntent => ({ kind: 'unmatched', reasonCode, reason });
const notUnderstood = (type: string, field: string) => ignore('NOT_UNDERSTOOD', `The ${type} event has no ${field}.`);

/** An ISO 4217 code the runtime knows, upper-cased (Stripe writes them in lower case); null otherwise. */
export function currencyCode(value: unknown): string | null {
  const code = text(value)?.toUpperCase() ?? null;
  if (code === null || !/^[A-Z]{3}$/.test(code)) return null;
  try {
    currencyDigits(code);
    return code;
  } catch {
    return null;
  }
}

/** An amount in the currency's minor units (Stripe's) as the number the API shows: 1999 USD → 19.99, 500 JPY → 500. */
export function majorUnits(minor: number, currency: string): number {
  const digits = currencyDigits(currency);
  return Number((minor / 10 ** digits).toFixed(digits));
}

/**
 * The operation key of what an event makes (docs/api.md#idempotency): the
 * ids of the conversion and reversal derive from it, so a retry of the
 * event, or a second event of the same checkout, finds what the first
 * made. 128 bits, hex, like the gateway's.
 */
export function stripeOperationKey(kind: 'checkout' | 'refund' | 'dispute', appId: string, id: string): string {
  return createHash('sha256').update(JSON.stringify(['stripe', kind, appId, id])).digest('hex').slice(0, 32);
}

function checkout(type: string, session: Json): StripeIntent {
  const sessionId = idOf(session.id);
  if (!sessionId) return notUnderstood(type, 'checkout session id');
  if (session.payment_status === 'unpaid') {
    return ignore('NOT_PAID', 'The checkout is not paid yet (a delayed payment method): checkout.session.async_payment_succeeded records it once it is.');
  }
  const metadata = object(session.metadata) ?? {};
  const code = text(metadata.referralCode) ?? text(session.client_reference_id);
  if (code === null) return ignore('NO_REFERRAL_CODE', 'The checkout carries no referral code (client_reference_id or metadata.referralCode).');
  const referralCode = code.trim();
  if (!USER_ID.test(referralCode)) return unmatched('UNKNOWN_REFERRAL_CODE', 'The checkout\'s referral code is not a referral code (1 to 128 characters).');
  const refereeId = text(metadata.refereeId);
  if (refereeId !== null && !USER_ID.test(refereeId)) {
    return unmatched('INVALID_REFEREE', 'metadata.refereeId is not a user id: 1 to 128 characters without control characters or white space at either end.');
  }
  const currency = currencyCode(session.currency);
  if (session.currency != null && currency === null) return ignore('UNKNOWN_CURRENCY', `The checkout's currency ${String(session.currency)} is not an ISO 4217 code.`);
  const customerId = idOf(session.customer);
  return {
    kind: 'checkout',
    sessionId,
    referralCode,
    refereeId: refereeId ?? customerId,
    customerId,
    email: text(object(session.customer_details)?.email),
    amountMinor: whole(session.amount_total),
    currency,
    paymentIntentId: idOf(session.payment_intent),
    invoiceId: idOf(session.invoice),
    subscriptionId: idOf(session.subscription),
  };
}

/** An invoice's payment intent and charge: top-level in older API versions, under `payments` (when included) in newer ones. */
function invoicePayment(invoice: Json): { paymentIntentId: string | null; chargeId: string | null } {
  const payments = (object(invoice.payments)?.data ?? []) as unknown[];
  const paid = payments.map((p) => object(object(p)?.payment)).filter((p): p is Json => p !== null);
  return {
    paymentIntentId: idOf(invoice.payment_intent) ?? paid.map((p) => idOf(p.payment_intent)).find((id) => id !== null) ?? null,
    chargeId: idOf(invoice.charge) ?? paid.map((p) => idOf(p.charge)).find((id) => id !== null) ?? null,
  };
}

function invoicePaid(type: string, invoice: Json): StripeIntent {
  const invoiceId = idOf(invoice.id);
  if (!invoiceId) return notUnderstood(type, 'invoice id');
  const customerId = idOf(invoice.customer);
  if (!customerId) return ignore('NO_CUSTOMER', 'The invoice has no customer: nobody it could be a purchase of.');
  const currency = currencyCode(invoice.currency);
  if (currency === null) return ignore('UNKNOWN_CURRENCY', `The invoice's currency ${String(invoice.currency)} is not an ISO 4217 code.`);
  const parent = object(object(invoice.parent)?.subscription_details);
  return {
    kind: 'invoice-paid',
    invoiceId,
    customerId,
    subscriptionId: idOf(invoice.subscription) ?? idOf(parent?.subscription),
    subscriptionCreate: invoice.billing_reason === 'subscription_create',
    amountMinor: whole(invoice.amount_paid) ?? 0,
    currency,
    paidAt: whole(object(invoice.status_transitions)?.paid_at) ?? whole(invoice.created) ?? 0,
    ...invoicePayment(invoice),
  };
}

function invoicePaymentPaid(type: string, payment: Json): StripeIntent {
  const invoiceId = idOf(payment.invoice);
  if (!invoiceId) return notUnderstood(type, 'invoice');
  const paid = object(payment.payment);
  const paymentIntentId = idOf(paid?.payment_intent);
  const chargeId = idOf(paid?.charge);
  if (!paymentIntentId && !chargeId) return ignore('NO_PAYMENT', 'The invoice was paid without a payment intent or charge (out of band): nothing to link.');
  return { kind: 'invoice-payment', invoiceId, paymentIntentId, chargeId };
}

function refund(type: string, charge: Json): StripeIntent {
  const chargeId = idOf(charge.id);
  const amountMinor = whole(charge.amount);
  const refundedMinor = whole(charge.amount_refunded);
  if (!chargeId || amountMinor === null || refundedMinor === null) return notUnderstood(type, 'charge id, amount or amount_refunded');
  const currency = currencyCode(charge.currency);
  if (currency === null) return ignore('UNKNOWN_CURRENCY', `The charge's currency ${String(charge.currency)} is not an ISO 4217 code.`);
  return { kind: 'refund', chargeId, paymentIntentId: idOf(charge.payment_intent), invoiceId: idOf(charge.invoice), amountMinor, refundedMinor, currency };
}

function dispute(type: string, disputed: Json): StripeIntent {
  const disputeId = idOf(disputed.id);
  const amountMinor = whole(disputed.amount);
  if (!disputeId || amountMinor === null) return notUnderstood(type, 'dispute id or amount');
  const chargeId = idOf(disputed.charge);
  const paymentIntentId = idOf(disputed.payment_intent);
  if (!chargeId && !paymentIntentId) return notUnderstood(type, 'charge or payment intent');
  const currency = currencyCode(disputed.currency);
  if (currency === null) return ignore('UNKNOWN_CURRENCY', `The dispute's currency ${String(disputed.currency)} is not an ISO 4217 code.`);
  return { kind: 'dispute', disputeId, chargeId, paymentIntentId, amountMinor, currency, disputeReason: text(disputed.reason) };
}

/** The event types the program reads; every other one is IGNORED (EVENT_TYPE_NOT_MAPPED). */
const MAPPED: Record<string, (type: string, object: Json) => StripeIntent> = {
  'checkout.session.completed': checkout,
  'checkout.session.async_payment_succeeded': checkout,
  'invoice.paid': invoicePaid,
  'invoice_payment.paid': invoicePaymentPaid,
  'charge.refunded': refund,
  'charge.dispute.created': dispute,
};

export const MAPPED_EVENT_TYPES = Object.keys(MAPPED);

/**
 * A verified Stripe event (its envelope: id, type, created, livemode,
 * data.object) and what it asks. Never throws: what it cannot read is an
 * intent to ignore, with why.
 */
export function mapStripeEvent(event: { id: string; type: string; created?: unknown; livemode?: unknown; data?: unknown }): MappedStripeEvent {
  const created = whole(event.created);
  const envelope = {
    id: event.id,
    type: event.type,
    livemode: event.livemode === true,
    createdAt: new Date(created !== null ? created * 1000 : 0),
  };
  const map = Object.hasOwn(MAPPED, event.type) ? MAPPED[event.type] : undefined;
  if (!map) return { ...envelope, intent: ignore('EVENT_TYPE_NOT_MAPPED', `Events of type ${event.type} do not concern the referral program.`) };
  const data = object(object(event.data)?.object);
  return { ...envelope, intent: data ? map(event.type, data) : notUnderstood(event.type, 'data.object') };
}

/**
 * The sale keys an applied intent links (sale-link.model.ts): what the
 * events waiting for them are woken by. A retry of an event that was
 * applied wakes them again (the wake-up its first try may not have
 * finished).
 */
export function keysLinkedBy(intent: StripeIntent): string[] {
  switch (intent.kind) {
    case 'checkout':
      return keysOf(
        intent.customerId && saleKey.customer(intent.customerId),
        intent.subscriptionId && saleKey.subscription(intent.subscriptionId),
        intent.paymentIntentId && saleKey.paymentIntent(intent.paymentIntentId),
        intent.invoiceId && saleKey.invoice(intent.invoiceId),
      );
    case 'invoice-paid':
      return keysOf(saleKey.invoice(intent.invoiceId), ...paymentKeys(intent));
    case 'invoice-payment':
      return paymentKeys(intent);
    default:
      return [];
  }
}

/** The keys of what paid an invoice: its payment intent and charge. */
export function paymentKeys(payment: { paymentIntentId: string | null; chargeId: string | null }): string[] {
  return keysOf(payment.paymentIntentId && saleKey.paymentIntent(payment.paymentIntentId), payment.chargeId && saleKey.charge(payment.chargeId));
}

/** Where a refund or dispute finds the sale its charge paid for, most specific first. */
export function chargeKeys(intent: RefundIntent | DisputeIntent): string[] {
  return keysOf(
    intent.paymentIntentId && saleKey.paymentIntent(intent.paymentIntentId),
    intent.kind === 'refund' && intent.invoiceId ? saleKey.invoice(intent.invoiceId) : null,
    intent.chargeId && saleKey.charge(intent.chargeId),
  );
}

/**
 * What one charge.refunded event reverses: what its refunded total adds to
 * the total applied before (`appliedMinor`), and whether the charge is now
 * refunded whole (then all that is left of the sale is reversed, so no
 * rounding leaves a remainder). null when it adds nothing: a repeat, or an
 * older total that arrived after a newer one.
 */
export function refundPortion(intent: Pick<RefundIntent, 'amountMinor' | 'refundedMinor'>, appliedMinor: number): { amountMinor: number; full: boolean } | null {
  const amountMinor = intent.refundedMinor - appliedMinor;
  if (amountMinor <= 0) return null;
  return { amountMinor, full: intent.refundedMinor >= intent.amountMinor };
}

/** What a dispute reverses of a sale with `remainingMinor` left: all of it when it disputes as much or more, else its amount. */
export function disputePortion(disputedMinor: number, remainingMinor: number | null): { amountMinor: number; full: boolean } {
  return { amountMinor: disputedMinor, full: remainingMinor === null || disputedMinor >= remainingMinor };
}
