import { randomUUID } from 'node:crypto';
import type { Connection, Model } from 'mongoose';
import { newId } from '@ris/mongo';
import { deliveryAttemptModel, type DeliveryAttemptDoc } from '../deliveries/delivery-attempt.model';
import { deliveryModel, type DeliveryDoc } from '../deliveries/delivery.model';

const EPOCH = new Date(0);

/** What one HTTP attempt gave (webhook-http-client.ts). */
export interface AttemptOutcome {
  startedAt: Date;
  durationMs: number;
  responseStatus: number | null;
  error: string | null;
  responseBody: string;
  responseBodyTruncated: boolean;
}

export interface ClaimedDelivery {
  delivery: DeliveryDoc;
  /** The token that proves this claim still holds the lease. */
  lease: string;
}

/**
 * The delivery queue in MongoDB, as the dispatcher works it. State lives
 * only here, so a restarted (or crashed) service loses nothing: a claim is
 * a lease that expires, and outcomes are written only by the lease holder.
 *
 * The claim scan is the one query that is deliberately not scoped by app:
 * the dispatcher serves every tenant. Everything after the claim carries
 * the delivery's appId.
 */
export class DeliveryQueue {
  private readonly deliveries: Model<DeliveryDoc>;
  private readonly attempts: Model<DeliveryAttemptDoc>;

  constructor(db: Connection) {
    this.deliveries = deliveryModel(db);
    this.attempts = deliveryAttemptModel(db);
  }

  /**
   * Ids of due, unleased deliveries, skipping endpoints that are busy enough.
   * No sort on purpose: on MongoDB the {status, nextAttemptAt} index already
   * yields them oldest-due first, and FerretDB (which scans) would otherwise
   * load and sort every pending delivery on each call.
   */
  async due(now: Date, limit: number, skipEndpoints: string[]): Promise<Array<Pick<DeliveryDoc, '_id' | 'endpointId'>>> {
    return this.deliveries
      .find(
        {
          status: 'PENDING',
          nextAttemptAt: { $lte: now },
          leaseUntil: { $lte: now },
          ...(skipEndpoints.length ? { endpointId: { $nin: skipEndpoints } } : {}),
        },
        { _id: 1, endpointId: 1 },
      )
      .limit(limit)
      .lean<Array<Pick<DeliveryDoc, '_id' | 'endpointId'>>>()
      .exec();
  }

  /**
   * Takes the lease on those of `deliveryIds` that are still due and free,
   * with one conditional update for the whole batch; returns the ones won
   * (another replica may have taken some). The batch shares a fresh lease
   * token, which every later write of these deliveries must present.
   */
  async claim(deliveryIds: string[], now: Date, leaseMs: number): Promise<ClaimedDelivery[]> {
    if (deliveryIds.length === 0) return [];
    const lease = randomUUID();
    await this.deliveries
      .updateMany(
        { _id: { $in: deliveryIds }, status: 'PENDING', nextAttemptAt: { $lte: now }, leaseUntil: { $lte: now } },
        { $set: { leaseUntil: new Date(now.getTime() + leaseMs), lease } },
      )
      .exec();
    const won = await this.deliveries.find({ _id: { $in: deliveryIds }, lease }).lean<DeliveryDoc[]>().exec();
    return won.map((delivery) => ({ delivery, lease }));
  }

  /**
   * Records a finished attempt: SUCCEEDED, PENDING again at `nextAttemptAt`,
   * or FAILED when that is null; and adds it to the attempt log. Returns
   * false if the lease was lost (the delivery's state then belongs to whoever
   * holds it now; the attempt, which did happen, is logged all the same).
   */
  async recordAttempt(
    claim: ClaimedDelivery,
    outcome: AttemptOutcome,
    next: { succeeded: true } | { succeeded: false; nextAttemptAt: Date | null },
  ): Promise<boolean> {
    const { delivery, lease } = claim;
    const finishedAt = new Date(outcome.startedAt.getTime() + outcome.durationMs);
    const common = {
      lease: null,
      leaseUntil: EPOCH,
      lastAttemptAt: outcome.startedAt,
      lastResponseStatus: outcome.responseStatus,
      lastError: outcome.error,
    };
    const state = next.succeeded
      ? { status: 'SUCCEEDED', nextAttemptAt: null, completedAt: finishedAt }
      : next.nextAttemptAt
        ? { status: 'PENDING', nextAttemptAt: next.nextAttemptAt, retryIndex: delivery.retryIndex + 1 }
        : { status: 'FAILED', nextAttemptAt: null, completedAt: finishedAt };
    // The log entry first, then the outcome: whoever sees the delivery's new
    // status (GET .../deliveries/{id}) also sees the attempt that decided it.
    await this.attempts.create({
      _id: newId('wha'),
      appId: delivery.appId,
      endpointId: delivery.endpointId,
      deliveryId: delivery._id,
      number: delivery.attempts + 1,
      ...outcome,
    });
    const result = await this.deliveries
      .updateOne({ _id: delivery._id, appId: delivery.appId, lease }, { $set: { ...common, ...state }, $inc: { attempts: 1 } })
      .exec();
    return result.matchedCount > 0;
  }

  /** Fails a delivery without an attempt (its endpoint is disabled). */
  async failWithoutAttempt(claim: ClaimedDelivery, error: string): Promise<void> {
    const now = new Date();
    await this.deliveries
      .updateOne(
        { _id: claim.delivery._id, appId: claim.delivery.appId, lease: claim.lease },
        { $set: { status: 'FAILED', nextAttemptAt: null, completedAt: now, lease: null, leaseUntil: EPOCH, lastError: error } },
      )
      .exec();
  }

  /** Its endpoint was deleted while it waited: nobody can ever see or send it. */
  async discard(claim: ClaimedDelivery): Promise<void> {
    await this.deliveries.deleteOne({ _id: claim.delivery._id, appId: claim.delivery.appId, lease: claim.lease }).exec();
  }

  /** Gives the lease back untouched (the service is stopping mid-attempt): due again at once. */
  async release(claim: ClaimedDelivery): Promise<void> {
    await this.deliveries
      .updateOne({ _id: claim.delivery._id, appId: claim.delivery.appId, lease: claim.lease }, { $set: { lease: null, leaseUntil: EPOCH } })
      .exec();
  }

  /** Retention: finished deliveries and attempts older than the cut-off. */
  async removeFinishedBefore(cutoff: Date): Promise<void> {
    await this.deliveries.deleteMany({ completedAt: { $lt: cutoff } }).exec();
    await this.attempts.deleteMany({ startedAt: { $lt: cutoff } }).exec();
  }
}
