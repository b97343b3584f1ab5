import type { StripeEventDoc, StripeEventStatusName } from './stripe-event.model';
import { describeKey } from './sale-keys';

/**
 * How long an event that arrived before what it needs (a renewal before
 * its checkout, a refund before its sale) waits for it: Stripe's own retry
 * horizon, so an event whose checkout was delivered late after an outage
 * still finds it. Past it, the event reads UNMATCHED.
 */
export const WAIT_MS = 72 * 3600 * 1000;

export interface StripeEventState {
  status: StripeEventStatusName;
  reasonCode: string;
  reason: string;
}

/**
 * An event's status as the API shows it at `now`: as stored, but a WAITING
 * one whose wait is over reads UNMATCHED (what it waited for never came),
 * without a job that would have to move it.
 */
export function stripeEventState(doc: Pick<StripeEventDoc, 'status' | 'reasonCode' | 'reason' | 'waitingFor' | 'waitUntil'>, now: Date): StripeEventState {
  if (doc.status === 'WAITING' && doc.waitUntil !== null && doc.waitUntil <= now) {
    const what = doc.waitingFor ? describeKey(doc.waitingFor) : 'what it needs';
    return { status: 'UNMATCHED', reasonCode: 'NOT_MATCHED_IN_TIME', reason: `No conversion or purchase of ${what} came within ${WAIT_MS / 3_600_000} hours of the event.` };
  }
  return { status: doc.status, reasonCode: doc.reasonCode, reason: doc.reason };
}
