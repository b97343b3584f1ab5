import { Schema, type Connection, type Model } from 'mongoose';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { ReferralCountersRepository } from './referral-counters.repository';

/**
 * A referral's counters (conversions by level, reward amount), kept on
 * write with $inc for GET /users/{userId}/stats and the referral's
 * rewardAmount. Apart from the referral document, which they would
 * otherwise rewrite on every conversion. (Clicks are counted from the
 * click documents.)
 */
export interface ReferralCountersDoc {
  /** The referral id: every increment goes by it. */
  _id: string;
  appId: string;
  campaignId: string;
  referrerId: string;
  /** Conversions credited through this code, by level: { L1: n, L2: m, … }. */
  conversions?: Record<string, number>;
  /** Rewards this referral earned its referrer, every level. */
  rewardAmount?: number;
}

const referralCountersSchema = new Schema<ReferralCountersDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    campaignId: { type: String, required: true },
    referrerId: { type: String, required: true },
    conversions: { type: Schema.Types.Mixed },
    rewardAmount: { type: Number },
  },
  { collection: 'referral_counters', versionKey: false },
);
declareIndexes<QueryNames<ReferralCountersRepository>>(referralCountersSchema, [
  { keys: { appId: 1, referrerId: 1, campaignId: 1 }, serves: ['ofReferrer'], why: "GET /users/{userId}/stats (with or without campaignId): the user's referrals' counters" },
]);

export const referralCountersModel = (db: Connection): Model<ReferralCountersDoc> =>
  (db.models.ReferralCounters as Model<ReferralCountersDoc> | undefined) ??
  db.model<ReferralCountersDoc>('ReferralCounters', referralCountersSchema);
