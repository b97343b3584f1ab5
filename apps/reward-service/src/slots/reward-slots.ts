import type { Connection } from 'mongoose';
import { AppScoped, isDuplicateKeyError } from '@ris/mongo';
import { rewardSlotModel, type RewardSlotDoc } from './reward-slot.model';

/** maxRewardsPerReferrer: at most `max` non-cancelled referrer rewards per user and campaign. */
export class RewardSlots {
  private readonly slots: AppScoped<RewardSlotDoc>;

  constructor(db: Connection) {
    this.slots = new AppScoped(rewardSlotModel(db));
  }

  /**
   * Takes a free place for `rewardId`, or returns false when all `max` are
   * held. Places are taken by insert under their unique _id: it starts
   * after the places already held, then fills places freed by cancelled
   * rewards.
   */
  async reserve(appId: string, campaignId: string, userId: string, max: number, rewardId: string): Promise<boolean> {
    const held = await this.slots.count(appId, { campaignId, userId });
    const order = [...Array.from({ length: max - held }, (_, i) => held + i + 1), ...Array.from({ length: Math.min(held, max) }, (_, i) => i + 1)];
    for (const n of order) {
      try {
        await this.slots.create(appId, { _id: `${appId}:${campaignId}:${userId}:${n}`, campaignId, userId, rewardId });
        return true;
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
    }
    return false;
  }

  async release(appId: string, rewardId: string): Promise<void> {
    await this.slots.model.deleteMany({ appId, rewardId }).exec();
  }
}
