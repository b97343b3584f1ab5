import { Schema, type Connection, type Model } from 'mongoose';

export type RewardStatusName = 'PENDING' | 'APPROVED' | 'PAID' | 'CANCELLED';
export type RewardSideName = 'REFERRER' | 'REFEREE';

export interface RewardDoc {
  _id: string;
  appId: string;
  userId: string;
  campaignId: string;
  referralId: string;
  /** The level-1 conversion record this reward was earned by. */
  conversionId: string;
  side: RewardSideName;
  level: number;
  amount: number;
  fulfillmentType: string;
  status: RewardStatusName;
  /** Absent until claimed; reward_codes holds the code and decides who issued it. */
  discountCode?: string;
  expiresAt: Date | null;
  claimedAt: Date | null;
  redeemedAt: Date | null;
  approvedAt: Date | null;
  cancelledAt: Date | null;
  /** How long a claimed code stays valid (the campaign's setting when the reward was made). */
  codeValidityDays: number;
  createdAt: Date;
  updatedAt: Date;
}

const rewardSchema = new Schema<RewardDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    userId: { type: String, required: true },
    campaignId: { type: String, required: true },
    referralId: { type: String, required: true },
    conversionId: { type: String, required: true },
    side: { type: String, required: true },
    level: { type: Number, required: true },
    amount: { type: Number, required: true },
    fulfillmentType: { type: String, required: true },
    status: { type: String, required: true },
    discountCode: { type: String },
    expiresAt: { type: Date, default: null },
    claimedAt: { type: Date, default: null },
    redeemedAt: { type: Date, default: null },
    approvedAt: { type: Date, default: null },
    cancelledAt: { type: Date, default: null },
    codeValidityDays: { type: Number, required: true },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'rewards', versionKey: false },
);
// CreateReward is idempotent by conversion, side and level: a retried
// conversion finds its reward instead of making a second one. The prefix
// serves Approve/CancelConversionRewards (a conversion's rewards).
rewardSchema.index({ appId: 1, conversionId: 1, side: 1, level: 1 }, { unique: true });
// GET /rewards, newest first (ties by id), and its filters: the sort is
// the index order, so a page reads only its own entries.
rewardSchema.index({ appId: 1, createdAt: -1, _id: -1 });
// GET /rewards?userId= and GET /users/{userId}/rewards.
rewardSchema.index({ appId: 1, userId: 1, createdAt: -1, _id: -1 });
// GET /rewards?status=.
rewardSchema.index({ appId: 1, status: 1, createdAt: -1, _id: -1 });
// GET /rewards?fulfillmentType=.
rewardSchema.index({ appId: 1, fulfillmentType: 1, createdAt: -1, _id: -1 });

export const rewardModel = (db: Connection): Model<RewardDoc> =>
  (db.models.Reward as Model<RewardDoc> | undefined) ?? db.model<RewardDoc>('Reward', rewardSchema);
