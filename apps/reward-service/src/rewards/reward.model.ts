import { Schema, type Connection, type Model } from 'mongoose';
import type { EnumName, FulfillmentType, RewardSide, RewardStatus } from '@ris/contracts';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { RewardRepository } from './reward.repository';

/** PENDING, APPROVED, PAID or CANCELLED: the names of the contract's RewardStatus. */
export type RewardStatusName = EnumName<typeof RewardStatus>;
/** REFERRER or REFEREE. */
export type RewardSideName = EnumName<typeof RewardSide>;
/** DISCOUNT_CODE, COUPON_CODE, MANUAL…: the contract's FulfillmentType. */
export type FulfillmentTypeName = EnumName<typeof FulfillmentType>;

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
  /** ISO 4217 code of amount (its campaign's); absent on rewards stored before currencies: USD. */
  currency?: string;
  fulfillmentType: FulfillmentTypeName;
  status: RewardStatusName;
  /** Absent until claimed; reward_codes holds the code and decides who issued it. */
  discountCode?: string;
  expiresAt: Date | null;
  claimedAt: Date | null;
  redeemedAt: Date | null;
  approvedAt: Date | null;
  cancelledAt: Date | null;
  /** Why an operator cancelled it (POST /rewards/{rewardId}/cancel); null otherwise. */
  cancellationNote?: string | null;
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
    currency: { type: String },
    fulfillmentType: { type: String, required: true },
    status: { type: String, required: true },
    discountCode: { type: String },
    expiresAt: { type: Date, default: null },
    claimedAt: { type: Date, default: null },
    redeemedAt: { type: Date, default: null },
    approvedAt: { type: Date, default: null },
    cancelledAt: { type: Date, default: null },
    cancellationNote: { type: String, default: null },
    codeValidityDays: { type: Number, required: true },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'rewards', versionKey: false },
);
declareIndexes<QueryNames<RewardRepository>>(rewardSchema, [
  {
    keys: { appId: 1, conversionId: 1, side: 1, level: 1 },
    options: { unique: true },
    serves: ['earnedFor', 'insertEarned', 'ofConversion', 'movableOf'],
    why: "CreateReward is idempotent by conversion, side and level (a retried conversion finds its reward); the prefix: a conversion's rewards",
  },
  // The sort is the index order, so a page (or an export's cursor) reads only its own entries.
  { keys: { appId: 1, createdAt: -1, _id: -1 }, serves: ['list', 'all'], why: 'GET /rewards, newest first (ties by id)' },
  { keys: { appId: 1, userId: 1, createdAt: -1, _id: -1 }, serves: ['list', 'all'], why: 'GET /rewards?userId= and GET /users/{userId}/rewards' },
  { keys: { appId: 1, status: 1, createdAt: -1, _id: -1 }, serves: ['list', 'all'], why: 'GET /rewards?status=' },
  { keys: { appId: 1, fulfillmentType: 1, createdAt: -1, _id: -1 }, serves: ['list', 'all'], why: 'GET /rewards?fulfillmentType=' },
]);

export const rewardModel = (db: Connection): Model<RewardDoc> =>
  (db.models.Reward as Model<RewardDoc> | undefined) ?? db.model<RewardDoc>('Reward', rewardSchema);
