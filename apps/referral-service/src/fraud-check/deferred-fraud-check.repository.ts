import type { Connection } from 'mongoose';
import { Repository } from '@ris/mongo';
import { deferredFraudCheckModel, type DeferredFraudCheckDoc } from './deferred-fraud-check.model';

/** The queue of fraud checks the fraud service could not answer (deferred-fraud-check.model.ts). */
export class DeferredFraudCheckRepository extends Repository<DeferredFraudCheckDoc> {
  constructor(db: Connection) {
    super(deferredFraudCheckModel(db));
  }

  /** Queues a referral's or conversion's check for the recovery pass, once (a retry finds it queued). */
  async defer(appId: string, kind: DeferredFraudCheckDoc['kind'], subjectId: string): Promise<void> {
    await this.insertNew([{ _id: subjectId, appId, kind, createdAt: new Date() }]);
  }

  /**
   * The oldest checks waiting, at most `limit`: the recovery pass's, a
   * system job across apps (each is then handled with its own appId), so
   * not scoped by one.
   */
  oldest(limit: number): Promise<DeferredFraudCheckDoc[]> {
    return this.collection.model.find({}).sort({ createdAt: 1 }).limit(limit).lean<DeferredFraudCheckDoc[]>().exec();
  }

  /** Takes a check off the queue once it was scored. */
  async done(appId: string, subjectId: string): Promise<void> {
    await this.collection.deleteOne(appId, { _id: subjectId });
  }
}
