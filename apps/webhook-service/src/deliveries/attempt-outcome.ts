import { newId } from '@ris/mongo';
import type { AttemptResult, DeliveryAttemptDoc } from './delivery-attempt.model';
import type { DeliveryDoc } from './delivery.model';
import type { DeliveryState } from './delivery.repository';

const EPOCH = new Date(0);

/** What an attempt asks for next: done, or another try at a time (null: no more tries, FAILED). */
export type AttemptNext = { succeeded: true } | { succeeded: false; nextAttemptAt: Date | null };

export const finishedAtOf = (result: AttemptResult): Date => new Date(result.startedAt.getTime() + result.durationMs);

/**
 * A delivery's state after an attempt with this result (the attempt itself
 * is counted apart, as `attempts + 1`): SUCCEEDED, PENDING again at
 * `nextAttemptAt`, or FAILED; the lease given back either way.
 */
export function stateAfterAttempt(delivery: Pick<DeliveryDoc, 'retryIndex'>, result: AttemptResult, next: AttemptNext): DeliveryState {
  const common: DeliveryState = {
    lease: null,
    leaseUntil: EPOCH,
    lastAttemptAt: result.startedAt,
    lastResponseStatus: result.responseStatus,
    lastError: result.error,
  };
  if (next.succeeded) return { ...common, status: 'SUCCEEDED', claimable: false, nextAttemptAt: null, completedAt: finishedAtOf(result) };
  if (next.nextAttemptAt) return { ...common, status: 'PENDING', claimable: true, nextAttemptAt: next.nextAttemptAt, retryIndex: delivery.retryIndex + 1 };
  return { ...common, status: 'FAILED', claimable: false, nextAttemptAt: null, completedAt: finishedAtOf(result) };
}

/** The attempt log's entry of an attempt (numbered after those the delivery has had). */
export function attemptLogEntry(delivery: Pick<DeliveryDoc, '_id' | 'appId' | 'endpointId' | 'attempts'>, result: AttemptResult): DeliveryAttemptDoc {
  return {
    _id: newId('wha'),
    appId: delivery.appId,
    endpointId: delivery.endpointId,
    deliveryId: delivery._id,
    number: delivery.attempts + 1,
    ...result,
  };
}
