import { Schema, type Connection, type Model } from 'mongoose';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { RewardSlotRepository } from './reward-slot.repository';

/**
 * One of a referrer's maxRewardsPerReferrer places in a campaign, held by a
 * reward. _id is `${appId}:${campaignId}:${userId}:${n}` for n = 1..max, so
 * two rewards can never hold the same place, whatever runs concurrently.
 */
export interface RewardSlotDoc {
  _id: string;
  appId: string;
  campaignId: string;
  userId: string;
  rewardId: string;
}

const rewardSlotSchema = new Schema<RewardSlotDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    campaignId: { type: String, required: true },
    userId: { type: String, required: true },
    rewardId: { type: String, required: true },
  },
  { collection: 'reward_slots', versionKey: false },
);
declareIndexes<QueryNames<RewardSlotRepository>>(rewardSlotSchema, [
  { keys: { appId: 1, campaignId: 1, userId: 1 }, serves: ['held', 'reserve'], why: 'how many places the user holds (where to try first)' },
  { keys: { appId: 1, rewardId: 1 }, serves: ['release'], why: 'a cancelled reward gives its place back' },
]);

export const rewardSlotModel = (db: Connection): Model<RewardSlotDoc> =>
  (db.models.RewardSlot as Model<RewardSlotDoc> | undefined) ?? db.model<RewardSlotDoc>('RewardSlot', rewardSlotSchema);
