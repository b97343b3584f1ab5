import { Schema, type Connection, type Model } from 'mongoose';
import { DEFAULT_CODE_VALIDITY_DAYS, type CampaignStatus, type EnumName } from '@ris/contracts';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { CampaignRepository } from './campaign.repository';

/** ACTIVE, PAUSED or ENDED: the names of the contract's CampaignStatus. */
export type CampaignStatusName = EnumName<typeof CampaignStatus>;

export interface RewardRuleDoc {
  amount: number;
  fulfillmentType: string;
}

export interface CampaignDoc {
  _id: string;
  appId: string;
  name: string;
  status: CampaignStatusName;
  referrerReward: RewardRuleDoc;
  refereeReward: RewardRuleDoc | null;
  /** Rewards for referrers above the direct one: level 2, 3, … */
  levels: Array<{ level: number; amount: number }>;
  attributionWindowDays: number;
  maxRewardsPerReferrer: number | null;
  fraud: { flagThreshold: number };
  /** Days a claimed discount/coupon code of this campaign's rewards stays valid. */
  rewardCodeValidityDays: number;
  /** Where the hosted referral links (GET /r/{code}) send visitors; null: the links answer 404. */
  landingUrl?: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What a referral, a conversion or a hosted link shows of its campaign. */
export type CampaignSummary = Pick<CampaignDoc, '_id' | 'name' | 'status'>;

const rewardRule = new Schema<RewardRuleDoc>(
  { amount: { type: Number, required: true }, fulfillmentType: { type: String, required: true } },
  { _id: false },
);

const campaignSchema = new Schema<CampaignDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    name: { type: String, required: true },
    status: { type: String, required: true },
    referrerReward: { type: rewardRule, required: true },
    refereeReward: { type: rewardRule, default: null },
    levels: { type: [{ _id: false, level: Number, amount: Number }], default: [] },
    attributionWindowDays: { type: Number, required: true },
    maxRewardsPerReferrer: { type: Number, default: null },
    fraud: { type: new Schema({ flagThreshold: Number }, { _id: false }), required: true },
    // Campaigns made before this setting existed read as the default.
    rewardCodeValidityDays: { type: Number, default: DEFAULT_CODE_VALIDITY_DAYS },
    landingUrl: { type: String, default: null },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'campaigns', versionKey: false },
);
declareIndexes<QueryNames<CampaignRepository>>(campaignSchema, [
  { keys: { appId: 1, status: 1, createdAt: -1 }, serves: ['page'], why: "GET /campaigns?status=: an app's campaigns of one status, newest first" },
  { keys: { appId: 1, createdAt: -1 }, serves: ['page'], why: "GET /campaigns: an app's campaigns, newest first" },
]);

export const campaignModel = (db: Connection): Model<CampaignDoc> =>
  (db.models.Campaign as Model<CampaignDoc> | undefined) ?? db.model<CampaignDoc>('Campaign', campaignSchema);
