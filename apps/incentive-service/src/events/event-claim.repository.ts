import type { Connection } from 'mongoose';
import { Repository } from '@ris/mongo';
import { eventClaimModel, type EventClaimDoc } from './event-claim.model';

/** The claims of events in flight (event-claim.model.ts): a small collection, only the work under way. */
export class EventClaimRepository extends Repository<EventClaimDoc> {
  constructor(db: Connection) {
    super(eventClaimModel(db));
  }

  /** Inserts claims in one write (each unique by its event id): per claim, whether this call took it. */
  claim(docs: EventClaimDoc[]): Promise<boolean[]> {
    return this.insertNew(docs);
  }

  /** Moves a claim to a new holder and lease, if its lease is still the one read: null when someone else took it first. */
  takeOver(claim: EventClaimDoc, lockedUntil: Date, holder: string): Promise<EventClaimDoc | null> {
    return this.collection.findOneAndUpdate(claim.appId, { _id: claim._id, lockedUntil: claim.lockedUntil }, { $set: { lockedUntil, holder } });
  }

  /** Ends the leases of these claims now. */
  async expire(appId: string, eventIds: string[]): Promise<void> {
    await this.collection.updateMany(appId, { _id: { $in: eventIds } }, { $set: { lockedUntil: new Date() } });
  }

  async release(appId: string, eventIds: string[]): Promise<void> {
    await this.collection.deleteMany(appId, { _id: { $in: eventIds } });
  }

  /**
   * The claims of every app, oldest lease first: the recovery pass, which
   * serves every app (each claim it takes over carries its appId, and is
   * finished with it).
   */
  oldest(limit: number): Promise<EventClaimDoc[]> {
    return this.acrossApps.find({}).sort({ lockedUntil: 1 }).limit(limit).lean<EventClaimDoc[]>().exec();
  }
}
