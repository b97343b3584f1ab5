import Stripe from 'stripe';
import { isDomainError } from '@ris/domain-errors';
import { stripeEventState, WAIT_MS } from './stripe-event-state';
import { verifiedStripeEvent } from './stripe-signature';

const SECRET = 'whsec_test_secret_of_this_spec';
const payload = JSON.stringify({ id: 'evt_1', object: 'event', type: 'checkout.session.completed', created: 1_790_000_000, livemode: false, data: { object: { id: 'cs_1' } } });
const sign = (body: string, options: { secret?: string; timestamp?: number } = {}) =>
  Stripe.webhooks.generateTestHeaderString({ payload: body, secret: options.secret ?? SECRET, timestamp: options.timestamp });

/** The domain error a call throws: its reason and details. */
function refusal(call: () => unknown): { reason: string; details: unknown } {
  try {
    call();
  } catch (err) {
    if (isDomainError(err)) return { reason: err.reason, details: err.details };
    throw err;
  }
  throw new Error('it did not throw');
}

describe('verifying a Stripe signature', () => {
  it('answers the event of a body signed with the secret, over its exact bytes', () => {
    expect(verifiedStripeEvent(Buffer.from(payload), sign(payload), SECRET)).toEqual({
      id: 'evt_1',
      type: 'checkout.session.completed',
      created: 1_790_000_000,
      livemode: false,
      data: { object: { id: 'cs_1' } },
    });
  });

  it('refuses another secret, other bytes (the same JSON re-serialised), a stale timestamp and a header that is none', () => {
    const reformatted = JSON.stringify(JSON.parse(payload), null, 2);
    expect(refusal(() => verifiedStripeEvent(Buffer.from(payload), sign(payload, { secret: 'whsec_other' }), SECRET))).toEqual({
      reason: 'STRIPE_SIGNATURE_INVALID',
      details: { why: 'NO_MATCHING_SIGNATURE' },
    });
    expect(refusal(() => verifiedStripeEvent(Buffer.from(reformatted), sign(payload), SECRET)).details).toEqual({ why: 'NO_MATCHING_SIGNATURE' });
    const stale = sign(payload, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    expect(refusal(() => verifiedStripeEvent(Buffer.from(payload), stale, SECRET)).details).toEqual({ why: 'STALE_TIMESTAMP' });
    expect(refusal(() => verifiedStripeEvent(Buffer.from(payload), 'garbage', SECRET)).details).toEqual({ why: 'MALFORMED_HEADER' });
  });

  it('refuses a signed body that is no event', () => {
    expect(refusal(() => verifiedStripeEvent(Buffer.from('[1]'), sign('[1]'), SECRET)).reason).toBe('VALIDATION_ERROR');
    expect(refusal(() => verifiedStripeEvent(Buffer.from('not json'), sign('not json'), SECRET)).reason).toBe('VALIDATION_ERROR');
  });
});

describe("an event's status as it reads", () => {
  const now = new Date('2026-11-28T12:00:00Z');
  const waiting = { status: 'WAITING' as const, reasonCode: 'WAITING_FOR_CUSTOMER', reason: 'No conversion of customer cus_1 yet.', waitingFor: 'customer:cus_1' };

  it('is the stored one while an event waits, and UNMATCHED once its wait is over', () => {
    expect(stripeEventState({ ...waiting, waitUntil: new Date(now.getTime() + 1) }, now)).toMatchObject({ status: 'WAITING', reasonCode: 'WAITING_FOR_CUSTOMER' });
    expect(stripeEventState({ ...waiting, waitUntil: now }, now)).toEqual({
      status: 'UNMATCHED',
      reasonCode: 'NOT_MATCHED_IN_TIME',
      reason: `No conversion or purchase of customer cus_1 came within ${WAIT_MS / 3_600_000} hours of the event.`,
    });
    expect(stripeEventState({ status: 'MATCHED', reasonCode: 'CONVERSION_RECORDED', reason: 'x', waitingFor: null, waitUntil: null }, now).status).toBe('MATCHED');
  });
});
