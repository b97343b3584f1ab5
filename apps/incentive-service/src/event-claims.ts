import type { Connection, Model } from 'mongoose';
import { duplicateKeyIndexes } from '@ris/mongo';
import { eventClaimModel, type EventClaimDoc } from './event-claim.model';

/**
 * Who is processing which event. A claim is inserted before any effect of
 * an event and deleted once its event document is stored; its _id is the
 * event id, so for a keyed event (id derived from the idempotencyKey) only
 * one request at a time can hold it. A claim outlives its lease only when
 * its holder died: then a retry of the same key, or the recovery pass, takes
 * it over and finishes the event from the input stored in it.
 */
export class EventClaims {
  readonly model: Model<EventClaimDoc>;

  constructor(
    db: Connection,
    readonly leaseMs = 30_000,
  ) {
    this.model = eventClaimModel(db);
  }

  /** Claims each event; false where someone else holds it. */
  async claim(docs: EventClaimDoc[]): Promise<boolean[]> {
    if (docs.length === 0) return [];
    try {
      await this.model.insertMany(docs, { ordered: false, lean: true });
      return docs.map(() => true);
    } catch (err) {
      const duplicates = duplicateKeyIndexes(err);
      if (duplicates === null && docs.length === 1) return [false];
      if (duplicates === null || duplicates.has(-1)) throw err;
      return docs.map((_, i) => !duplicates.has(i));
    }
  }

  find(appId: string, eventId: string): Promise<EventClaimDoc | null> {
    return this.model.findOne({ _id: eventId, appId }).lean<EventClaimDoc>().exec();
  }

  /** Takes over a claim whose lease ran out; null if it is still held or someone else took it. */
  takeOver(claim: EventClaimDoc): Promise<EventClaimDoc | null> {
    const now = new Date();
    return this.model
      .findOneAndUpdate(
        { _id: claim._id, appId: claim.appId, lockedUntil: { $lte: now, $eq: claim.lockedUntil } },
        { $set: { lockedUntil: new Date(now.getTime() + this.leaseMs) } },
        { new: true },
      )
      .lean<EventClaimDoc>()
      .exec();
  }

  /** Ends the leases now: the holder failed and will not finish them. */
  async expire(appId: string, eventIds: string[]): Promise<void> {
    if (eventIds.length === 0) return;
    await this.model.updateMany({ appId, _id: { $in: eventIds } }, { $set: { lockedUntil: new Date() } }).exec();
  }

  async release(appId: string, eventIds: string[]): Promise<void> {
    if (eventIds.length === 0) return;
    await this.model.deleteMany({ appId, _id: { $in: eventIds } }).exec();
  }

  /** Claims whose holder died (lease over), oldest first: the recovery pass. */
  expired(limit: number): Promise<EventClaimDoc[]> {
    return this.model
      .find({ lockedUntil: { $lte: new Date() } })
      .sort({ lockedUntil: 1 })
      .limit(limit)
      .lean<EventClaimDoc[]>()
      .exec();
  }
}
