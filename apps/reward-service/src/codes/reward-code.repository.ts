import type { Connection } from 'mongoose';
import { crashPoint } from '@ris/config';
import type { DomainEvent, Outbox, OutboxCarrier } from '@ris/events';
import { Repository } from '@ris/mongo';
import { rewardCodeModel, type RewardCodeDoc } from './reward-code.model';

/** A code as drawn for a reward: `_id` is the reward's id. */
export type NewRewardCode = Pick<RewardCodeDoc, '_id' | 'code' | 'claimedAt' | 'expiresAt'>;

/** The issued codes: one per reward (its _id), each unique across apps. */
export class RewardCodeRepository extends Repository<RewardCodeDoc> {
  /** reward.claimed, stored with the code it announces. Codes are never written again: no lock. */
  private readonly events: OutboxCarrier;

  constructor(db: Connection, outbox: Outbox) {
    super(rewardCodeModel(db));
    this.events = outbox.carrier(this.collection.model);
  }

  /** The code issued for a reward, if any. */
  ofReward(appId: string, rewardId: string): Promise<RewardCodeDoc | null> {
    return this.findById(appId, rewardId);
  }

  /** The app's code written exactly so (another app's is not found). */
  byCode(appId: string, code: string): Promise<RewardCodeDoc | null> {
    return this.collection.findOne(appId, { code });
  }

  /**
   * Issues `code` for its reward with `events` (the claim's one decisive
   * insert; they are published right after it). Of concurrent claims of a
   * reward exactly one inserts: the others get the winner's code
   * (issued: false). null: the code itself is another reward's; draw again.
   */
  async issue(appId: string, code: NewRewardCode, events: DomainEvent[]): Promise<{ code: RewardCodeDoc; issued: boolean } | null> {
    const carried = this.events.carry(events);
    const doc: RewardCodeDoc = { ...code, appId, ...carried.fields };
    const [inserted] = await this.insertNew([doc]);
    if (inserted) {
      crashPoint('reward.claimed');
      carried.written(doc);
      return { code: doc, issued: true };
    }
    const winner = await this.ofReward(appId, code._id);
    return winner ? { code: winner, issued: false } : null;
  }
}
