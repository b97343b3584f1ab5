import { Schema, type Connection, type Model } from 'mongoose';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { CampaignStatsRepository } from './campaign-stats.repository';

/**
 * A campaign's counters, kept on write with $inc (referral created, click,
 * conversion, referral completed) so GET /stats reads one document however
 * large the campaign.
 */
export interface CampaignStatsDoc {
  /** The campaign id: read and incremented by a lone _id (one index read on FerretDB too). */
  _id: string;
  appId: string;
  campaignId: string;
  totalReferrals?: number;
  completedReferrals?: number;
  totalClicks?: number;
  totalConversions?: number;
  /** The reward service creates and cancels rewards only when this service asks, so it counts their value too. */
  totalRewardValue?: number;
  /** Reversals recorded (refunds, chargebacks…), of conversions and of purchases. */
  totalReversals?: number;
}

const campaignStatsSchema = new Schema<CampaignStatsDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    campaignId: { type: String, required: true },
    totalReferrals: { type: Number },
    completedReferrals: { type: Number },
    totalClicks: { type: Number },
    totalConversions: { type: Number },
    totalRewardValue: { type: Number },
    totalReversals: { type: Number },
  },
  { collection: 'campaign_stats', versionKey: false },
);
// GET /stats?campaignId= and every $inc upsert go by _id (the campaign id).
declareIndexes<QueryNames<CampaignStatsRepository>>(campaignStatsSchema, [
  { keys: { appId: 1 }, serves: ['ofApp'], why: "GET /stats/campaigns: the app's totals, summed over its campaigns' documents" },
]);

export const campaignStatsModel = (db: Connection): Model<CampaignStatsDoc> =>
  (db.models.CampaignStats as Model<CampaignStatsDoc> | undefined) ??
  db.model<CampaignStatsDoc>('CampaignStats', campaignStatsSchema);
