import type { Connection } from 'mongoose';
import type { Carried, Outbox, OutboxCarrier } from '@ris/events';
import { Repository, SerialByKey } from '@ris/mongo';
import { engagementUserId } from '../events/derived-ids';
import { engagementUserModel, type EngagementUserDoc } from './engagement-user.model';

/** What a write sets: the rest (id, app, user, creation) stays. */
export type EngagementChanges = Pick<EngagementUserDoc, 'timeZone' | 'streaks' | 'checkAt'>;

/**
 * Users' engagement documents. Writes are compare-and-sets on `v`, one at a
 * time per document in this process (FerretDB v1 runs an update as a read
 * and a write); the outbox clean-up takes the same lock.
 */
export class EngagementUserRepository extends Repository<EngagementUserDoc> {
  private readonly writes = new SerialByKey();

  constructor(db: Connection) {
    super(engagementUserModel(db));
  }

  carrier(outbox: Outbox): OutboxCarrier {
    return outbox.carrier(this.collection.model, { lock: { run: (doc, work) => this.writes.run(doc._id, work) } });
  }

  ofUser(appId: string, userId: string): Promise<EngagementUserDoc | null> {
    return this.collection.findById(appId, engagementUserId(appId, userId));
  }

  /**
   * Writes the changes if the document is still at version `v` (0: it did
   * not exist), with the events they announce: false when another writer
   * moved first (read again and retry).
   */
  save(appId: string, userId: string, v: number, changes: EngagementChanges, carried: Carried): Promise<boolean> {
    const _id = engagementUserId(appId, userId);
    const now = new Date();
    const { checkAt, ...rest } = changes;
    const set: Record<string, unknown> = { ...rest, updatedAt: now };
    const unset: Record<string, ''> = {};
    if (checkAt) set.checkAt = checkAt;
    else unset.checkAt = '';
    if (v === 0) {
      // A first write creates it at version 1; a document created meanwhile does not match, and the upsert's duplicate _id answers false.
      return this.writes.run(_id, () =>
        this.collection.compareAndSet(
          appId,
          { _id, v: { $exists: false } },
          carried.update({ $setOnInsert: { userId, v: 1, createdAt: now }, $set: set }),
          { upsert: true },
        ),
      );
    }
    const update: Record<string, unknown> = { $set: set, $inc: { v: 1 } };
    if (Object.keys(unset).length) update.$unset = unset;
    return this.writes.run(_id, () => this.collection.compareAndSet(appId, { _id, v }, carried.update(update)));
  }

  /** Users whose streaks the pass must look at (across apps: a system job); unsorted, as the pass takes every due one (a sort made FerretDB v1 order them all for each batch). */
  due(now: Date, limit: number): Promise<EngagementUserDoc[]> {
    return this.acrossApps.find({ checkAt: { $lte: now } }).limit(limit).lean<EngagementUserDoc[]>().exec();
  }
}
