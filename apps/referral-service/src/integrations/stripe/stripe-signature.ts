import Stripe from 'stripe';
import { DomainError, invalid } from '@ris/domain-errors';

/** How far the signature's timestamp may be from now, in seconds: the stripe package's default, what Stripe recommends. */
export const SIGNATURE_TOLERANCE_SECONDS = Stripe.webhooks.DEFAULT_TOLERANCE;

/** The envelope of a verified event: what the mapper reads. */
export interface VerifiedStripeEvent {
  id: string;
  type: string;
  created: number;
  livemode: boolean;
  data: unknown;
}

/** Why the stripe package refused a signature, for the caller's details (its own messages are long and change). */
function refusalOf(message: string): { why: string; reason: string } {
  if (/timestamp outside the tolerance/i.test(message)) {
    return { why: 'STALE_TIMESTAMP', reason: `its timestamp is more than ${SIGNATURE_TOLERANCE_SECONDS} seconds from now (a replay, or a clock far off)` };
  }
  if (/unable to extract timestamp and signatures/i.test(message)) return { why: 'MALFORMED_HEADER', reason: 'it is not a Stripe signature (t=<unix seconds>,v1=<signature>)' };
  return { why: 'NO_MATCHING_SIGNATURE', reason: "no v1 signature in it matches the body with this integration's webhook secret" };
}

/**
 * The event Stripe signed: the `Stripe-Signature` header checked over the
 * exact bytes received with the integration's secret by the official
 * `stripe` package (HMAC-SHA256, constant-time, the timestamp within 300 s),
 * then parsed. A signature that does not verify is STRIPE_SIGNATURE_INVALID
 * (400): nothing about the request is stored.
 */
export function verifiedStripeEvent(payload: Uint8Array, signature: string, secret: string): VerifiedStripeEvent {
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(Buffer.from(payload), signature, secret, SIGNATURE_TOLERANCE_SECONDS);
  } catch (err) {
    if (err instanceof SyntaxError) throw invalid('The signed body is not JSON.');
    const { why, reason } = refusalOf(err instanceof Error ? err.message : String(err));
    throw new DomainError('invalid', 'STRIPE_SIGNATURE_INVALID', `The Stripe-Signature header does not verify: ${reason}.`, { why });
  }
  const envelope = event as unknown as Record<string, unknown>;
  if (typeof envelope.id !== 'string' || envelope.id === '' || envelope.id.length > 255 || typeof envelope.type !== 'string' || envelope.type === '') {
    throw invalid('The signed body is not a Stripe event: it has no id or type.');
  }
  return { id: envelope.id, type: envelope.type, created: Number(envelope.created) || 0, livemode: envelope.livemode === true, data: envelope.data };
}
