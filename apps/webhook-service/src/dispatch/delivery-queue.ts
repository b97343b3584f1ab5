import { newId } from '@ris/mongo';
import type { AttemptResult } from '../deliveries/delivery-attempt.model';
import type { DeliveryAttemptRepository } from '../deliveries/delivery-attempt.repository';
import type { DeliveryDoc } from '../deliveries/delivery.model';
import type { ClaimedDelivery, DeliveryRepository, DeliveryState } from '../deliveries/delivery.repository';

export type { ClaimedDelivery };

const EPOCH = new Date(0);

/**
 * The delivery queue in MongoDB, as the dispatcher works it. State lives
 * only there, so a restarted (or crashed) service loses nothing: a claim is
 * a lease that expires, and outcomes are written only by the lease holder.
 *
 * The claim scan is the one query that is deliberately not scoped by app:
 * the dispatcher serves every tenant. Everything after the claim carries
 * the delivery's appId.
 */
export class DeliveryQueue {
  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly attempts: DeliveryAttemptRepository,
  ) {}

  /** Ids of due, unleased deliveries, skipping endpoints that are busy enough (DeliveryRepository.due). */
  due(now: Date, limit: number, skipEndpoints: string[]): Promise<Array<Pick<DeliveryDoc, '_id' | 'endpointId'>>> {
    return this.deliveries.due(now, limit, skipEndpoints);
  }

  /** Takes the lease on those still due and free, in one batch; the ones won. */
  claim(deliveryIds: string[], now: Date, leaseMs: number): Promise<ClaimedDelivery[]> {
    return this.deliveries.claim(deliveryIds, now, leaseMs);
  }

  /**
   * Records a finished attempt: SUCCEEDED, PENDING again at `nextAttemptAt`,
   * or FAILED when that is null; and adds it to the attempt log. Returns
   * false if the lease was lost (the delivery's state then belongs to whoever
   * holds it now; the attempt, which did happen, is logged all the same).
   */
  async recordAttempt(
    claim: ClaimedDelivery,
    outcome: AttemptResult,
    next: { succeeded: true } | { succeeded: false; nextAttemptAt: Date | null },
  ): Promise<boolean> {
    const { delivery } = claim;
    const finishedAt = new Date(outcome.startedAt.getTime() + outcome.durationMs);
    const common: DeliveryState = {
      lease: null,
      leaseUntil: EPOCH,
      lastAttemptAt: outcome.startedAt,
      lastResponseStatus: outcome.responseStatus,
      lastError: outcome.error,
    };
    const state: DeliveryState = next.succeeded
      ? { status: 'SUCCEEDED', nextAttemptAt: null, completedAt: finishedAt }
      : next.nextAttemptAt
        ? { status: 'PENDING', nextAttemptAt: next.nextAttemptAt, retryIndex: delivery.retryIndex + 1 }
        : { status: 'FAILED', nextAttemptAt: null, completedAt: finishedAt };
    // The log entry first, then the outcome: whoever sees the delivery's new
    // status (GET .../deliveries/{id}) also sees the attempt that decided it.
    await this.attempts.log({
      _id: newId('wha'),
      appId: delivery.appId,
      endpointId: delivery.endpointId,
      deliveryId: delivery._id,
      number: delivery.attempts + 1,
      ...outcome,
    });
    return this.deliveries.recordAttempt(claim, { ...common, ...state });
  }

  /** Fails a delivery without an attempt (its endpoint is disabled). */
  failWithoutAttempt(claim: ClaimedDelivery, error: string): Promise<void> {
    return this.deliveries.failUnattempted(claim, error, new Date());
  }

  /** Its endpoint was deleted while it waited: nobody can ever see or send it. */
  discard(claim: ClaimedDelivery): Promise<void> {
    return this.deliveries.discard(claim);
  }

  /** Gives the lease back untouched (the service is stopping mid-attempt): due again at once. */
  release(claim: ClaimedDelivery): Promise<void> {
    return this.deliveries.release(claim);
  }

  /** Retention: finished deliveries and attempts older than the cut-off. */
  async removeFinishedBefore(cutoff: Date): Promise<void> {
    await this.deliveries.removeFinishedBefore(cutoff);
    await this.attempts.removeStartedBefore(cutoff);
  }
}
