import { randomUUID } from 'node:crypto';
import type { Connection, FilterQuery } from 'mongoose';
import { Repository, type Page, type PageQuery } from '@ris/mongo';
import { deliveryModel, type DeliveryDoc, type DeliveryStatusName } from './delivery.model';
import type { PendingInsert } from './pending-insert';

export interface ClaimedDelivery {
  delivery: DeliveryDoc;
  /** The token that proves this claim still holds the lease. */
  lease: string;
  /** Set while the delivery is not stored yet: its insert waits for its first attempt (PendingInsert). */
  insert?: PendingInsert;
}

/** What a delivery's state becomes (an attempt's outcome, a retry asked for). */
export type DeliveryState = Partial<Omit<DeliveryDoc, '_id' | 'appId' | 'endpointId' | 'eventId' | 'messageId' | 'event' | 'payload'>>;

const EPOCH = new Date(0);

/**
 * The deliveries, as the API and the dispatcher ask for them (delivery.model.ts
 * names the index of each). The dispatcher serves every tenant: its scan
 * and claim go across apps (acrossApps); everything after the claim
 * carries the delivery's appId.
 */
export class DeliveryRepository extends Repository<DeliveryDoc> {
  constructor(db: Connection) {
    super(deliveryModel(db));
  }

  /**
   * Complete deliveries (possibly of several apps) in one write, each
   * idempotent by its endpoint and event: per delivery, whether this call
   * stored it (false: the fan-out of that event already did).
   */
  queue(deliveries: DeliveryDoc[]): Promise<boolean[]> {
    return this.insertNew(deliveries);
  }

  /** A delivery under an id derived from the request's operation key, or the one that key already made. */
  createOnce(appId: string, delivery: Omit<DeliveryDoc, 'appId'>): Promise<{ doc: DeliveryDoc; created: boolean }> {
    return this.insertOrGet(appId, delivery);
  }

  /** GET /webhooks/{id}/deliveries: an endpoint's deliveries, newest first, of one status if given. */
  list(appId: string, endpointId: string, page: PageQuery, status?: DeliveryStatusName): Promise<Page<DeliveryDoc>> {
    return this.collection.page(appId, { endpointId, ...(status ? { status } : {}) }, { createdAt: -1, _id: -1 }, page);
  }

  /** The delivery if it is the endpoint's. */
  ofEndpoint(appId: string, endpointId: string, deliveryId: string): Promise<DeliveryDoc | null> {
    return this.collection.findOne(appId, { _id: deliveryId, endpointId });
  }

  /**
   * Writes `state` only while the delivery is still `status` and nobody
   * holds its lease (no attempt is running): the delivery after, or null.
   */
  setWhileIdle(appId: string, endpointId: string, deliveryId: string, status: DeliveryStatusName, now: Date, state: DeliveryState): Promise<DeliveryDoc | null> {
    return this.collection.findOneAndUpdate(appId, { _id: deliveryId, endpointId, status, leaseUntil: { $lte: now } }, { $set: state });
  }

  async removeForEndpoint(appId: string, endpointId: string): Promise<void> {
    await this.collection.deleteMany(appId, { endpointId });
  }

  /**
   * Ids of due deliveries of every app that no dispatcher holds (claimable),
   * skipping endpoints that are busy enough. No sort on purpose: on MongoDB
   * the {claimable, nextAttemptAt} index already yields them oldest-due
   * first, and FerretDB would otherwise load and sort every match.
   */
  due(now: Date, limit: number, skipEndpoints: string[]): Promise<Array<Pick<DeliveryDoc, '_id' | 'endpointId'>>> {
    return this.dueWhere({ claimable: true }, now, limit, skipEndpoints);
  }

  /**
   * The sweep: due PENDING deliveries whose lease ran out (a dispatcher
   * died holding them, or stalled past its lease), and those stored before
   * `claimable` existed. On FerretDB this reads every pending delivery
   * (only the status is pushed down), so the dispatcher runs it seldom.
   */
  dueAfterLeases(now: Date, limit: number, skipEndpoints: string[]): Promise<Array<Pick<DeliveryDoc, '_id' | 'endpointId'>>> {
    return this.dueWhere({}, now, limit, skipEndpoints);
  }

  private dueWhere(
    filter: FilterQuery<DeliveryDoc>,
    now: Date,
    limit: number,
    skipEndpoints: string[],
  ): Promise<Array<Pick<DeliveryDoc, '_id' | 'endpointId'>>> {
    return this.acrossApps
      .find(
        {
          ...filter,
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
   * Takes the lease on those of `deliveryIds` (of any apps: the dispatcher
   * serves them all) that are still due and free, each by its `_id` in one
   * round trip, then reads back the ones won by the new lease token
   * (another replica may have taken some). The batch shares that token,
   * which every later write of these deliveries must present.
   */
  async claim(deliveryIds: string[], now: Date, leaseMs: number): Promise<ClaimedDelivery[]> {
    if (deliveryIds.length === 0) return [];
    const lease = randomUUID();
    await this.updateEachAcrossApps(
      deliveryIds,
      { status: 'PENDING', nextAttemptAt: { $lte: now }, leaseUntil: { $lte: now } },
      { $set: { leaseUntil: new Date(now.getTime() + leaseMs), lease, claimable: false } },
    );
    const won = await this.acrossApps.find({ lease }).lean<DeliveryDoc[]>().exec();
    return won.map((delivery) => ({ delivery, lease }));
  }

  /**
   * Extends the lease of those of `deliveryIds` still under it (one app's),
   * each by its `_id` in one round trip (updateEach); the ids still under
   * it. Those lost (their lease ran out and another dispatcher took them)
   * carry another token.
   */
  async renewLease(appId: string, lease: string, deliveryIds: string[], until: Date): Promise<Set<string>> {
    const matched = await this.collection.updateEach(appId, deliveryIds, { lease }, { $set: { leaseUntil: until } });
    if (matched === deliveryIds.length) return new Set(deliveryIds);
    // Rare (a stall past the lease): which ones, read back one by one by _id.
    const docs = await Promise.all(deliveryIds.map((id) => this.collection.findById(appId, id)));
    return new Set(docs.filter((d) => d?.lease === lease).map((d) => d!._id));
  }

  /**
   * Successful attempts of one app under one lease, recorded in one round
   * trip (updateEach: each by `_id`, guarded by the lease): SUCCEEDED, the
   * lease given back, one more attempt counted. `state` is shared by the
   * batch (its first start, its last end). The number recorded: fewer
   * than `deliveryIds` when some lost the lease.
   */
  recordSucceeded(appId: string, lease: string, deliveryIds: string[], state: DeliveryState): Promise<number> {
    return this.collection.updateEach(appId, deliveryIds, { lease }, { $set: state, $inc: { attempts: 1 } });
  }

  /** The leases of one app's deliveries given back untouched (a stopping dispatcher's): due again at once. */
  async releaseAll(appId: string, lease: string, deliveryIds: string[]): Promise<void> {
    await this.collection.updateEach(appId, deliveryIds, { lease }, { $set: { lease: null, leaseUntil: EPOCH, claimable: true } });
  }

  /** An attempt's outcome, and one more attempt counted, if the claim still holds the lease; whether it did. */
  async recordAttempt(claim: ClaimedDelivery, state: DeliveryState): Promise<boolean> {
    const { delivery, lease } = claim;
    // $inc always changes the document: modified is matched.
    return (await this.collection.updateOne(delivery.appId, { _id: delivery._id, lease }, { $set: state, $inc: { attempts: 1 } })) > 0;
  }

  /** FAILED without an attempt (its endpoint is disabled), if the claim still holds the lease. */
  async failUnattempted(claim: ClaimedDelivery, error: string, now: Date): Promise<void> {
    await this.collection.updateOne(
      claim.delivery.appId,
      { _id: claim.delivery._id, lease: claim.lease },
      { $set: { status: 'FAILED', nextAttemptAt: null, completedAt: now, lease: null, leaseUntil: EPOCH, claimable: false, lastError: error } },
    );
  }

  /** Deleted, if the claim still holds the lease. */
  async discard(claim: ClaimedDelivery): Promise<void> {
    await this.collection.deleteOne(claim.delivery.appId, { _id: claim.delivery._id, lease: claim.lease });
  }

  /** The lease given back untouched: due again at once. */
  async release(claim: ClaimedDelivery): Promise<void> {
    await this.collection.updateOne(claim.delivery.appId, { _id: claim.delivery._id, lease: claim.lease }, { $set: { lease: null, leaseUntil: EPOCH, claimable: true } });
  }

  /** Retention, across apps: finished deliveries older than the cut-off. */
  async removeFinishedBefore(cutoff: Date): Promise<void> {
    await this.acrossApps.deleteMany({ completedAt: { $lt: cutoff } }).exec();
  }

  /** The queue's depth: deliveries pending in every app (due now or waiting for a retry). */
  pendingCount(): Promise<number> {
    return this.acrossApps.countDocuments({ status: 'PENDING' }).exec();
  }

  /** When the pending delivery due first (in every app) is due; null when none is pending. */
  async oldestPendingDue(): Promise<Date | null> {
    const first = await this.acrossApps.findOne({ status: 'PENDING' }, { nextAttemptAt: 1 }).sort({ nextAttemptAt: 1 }).lean<Pick<DeliveryDoc, 'nextAttemptAt'>>().exec();
    return first?.nextAttemptAt ?? null;
  }
}
