import type { Connection } from 'mongoose';
import { Repository } from '@ris/mongo';
import { rewardSlotModel, type RewardSlotDoc } from './reward-slot.model';

/** maxRewardsPerReferrer: at most `max` non-cancelled referrer rewards per user and campaign. */
export class RewardSlotRepository extends Repository<RewardSlotDoc> {
  constructor(db: Connection) {
    super(rewardSlotModel(db));
  }

  /** How many places the user holds in the campaign (where to try first). */
  held(appId: string, campaignId: string, userId: string): Promise<number> {
    return this.collection.count(appId, { campaignId, userId });
  }

  /**
   * Takes a free place for `rewardId`, or returns false when all `max` are
   * held. Places are taken by insert under their unique _id: it starts
   * after the places already held, then fills places freed by cancelled
   * rewards.
   */
  async reserve(appId: string, campaignId: string, userId: string, max: number, rewardId: string): Promise<boolean> {
    const held = await this.held(appId, campaignId, userId);
    const order = [...Array.from({ length: max - held }, (_, i) => held + i + 1), ...Array.from({ length: Math.min(held, max) }, (_, i) => i + 1)];
    for (const n of order) {
      const [taken] = await this.insertNew([{ _id: `${appId}:${campaignId}:${userId}:${n}`, appId, campaignId, userId, rewardId }]);
      if (taken) return true;
    }
    return false;
  }

  /** The reward's place is free again (it was cancelled, or never made). */
  async release(appId: string, rewardId: string): Promise<void> {
    await this.collection.deleteMany(appId, { rewardId });
  }
}
