import { Schema, type Connection, type Model } from 'mongoose';
import { DEFAULT_CODE_VALIDITY_DAYS, DEFAULT_CURRENCY, type CampaignStatus, type EnumName } from '@ris/contracts';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { CampaignRepository } from './campaign.repository';

/** ACTIVE, PAUSED or ENDED: the names of the contract's CampaignStatus. */
export type CampaignStatusName = EnumName<typeof CampaignStatus>;

/**
 * What a rule pays (docs/product-decisions.md §3.8): `percent` of the sale's
 * amount, capped by `maxAmount`, when `percent` is set; else the fixed
 * `amount` (0 for a percentage rule). Rules stored before percentages
 * existed have neither field: fixed amounts.
 */
export interface RuleTerms {
  amount: number;
  percent?: number | null;
  maxAmount?: number | null;
}

export interface RewardRuleDoc extends RuleTerms {
  fulfillmentType: string;
}

/** The reward of the referrer `level` steps above the referee (2 and up). */
export interface LevelRewardDoc extends RuleTerms {
  level: number;
}

export interface CampaignDoc {
  _id: string;
  appId: string;
  name: string;
  status: CampaignStatusName;
  referrerReward: RewardRuleDoc;
  refereeReward: RewardRuleDoc | null;
  /** Rewards for referrers above the direct one: level 2, 3, … */
  levels: LevelRewardDoc[];
  attributionWindowDays: number;
  maxRewardsPerReferrer: number | null;
  fraud: { flagThreshold: number };
  /** Days a claimed discount/coupon code of this campaign's rewards stays valid. */
  rewardCodeValidityDays: number;
  /** Where the hosted referral links (GET /r/{code}) send visitors; null: the links answer 404. */
  landingUrl?: string | null;
  // The schedule. Campaigns stored before it existed have neither field: read as null, no bound.
  /** Takes referrals and conversions from then on (inclusive); null: from its creation. */
  startsAt: Date | null;
  /** Takes none from then on (exclusive); null: no end. */
  endsAt: Date | null;
  // Commissions (issue 29). Campaigns stored before them read as USD, 0 and null.
  /** ISO 4217 code of every amount of the campaign; fixed at creation. */
  currency: string;
  /** Days a clean conversion's rewards are held before they are payable. */
  holdDays: number;
  /** Months after the conversion during which purchases earn again; null: not recurring. */
  recurringMonths: number | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What a referral, a conversion or a hosted link shows of its campaign (the schedule: its effective status). */
export type CampaignSummary = Pick<CampaignDoc, '_id' | 'name' | 'status' | 'startsAt' | 'endsAt' | 'currency'>;

const ruleTerms = { amount: { type: Number, required: true }, percent: { type: Number, default: null }, maxAmount: { type: Number, default: null } };
const rewardRule = new Schema<RewardRuleDoc>({ ...ruleTerms, fulfillmentType: { type: String, required: true } }, { _id: false });
const levelReward = new Schema<LevelRewardDoc>({ level: { type: Number, required: true }, ...ruleTerms }, { _id: false });

const campaignSchema = new Schema<CampaignDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    name: { type: String, required: true },
    status: { type: String, required: true },
    referrerReward: { type: rewardRule, required: true },
    refereeReward: { type: rewardRule, default: null },
    levels: { type: [levelReward], default: [] },
    attributionWindowDays: { type: Number, required: true },
    maxRewardsPerReferrer: { type: Number, default: null },
    fraud: { type: new Schema({ flagThreshold: Number }, { _id: false }), required: true },
    // Campaigns made before this setting existed read as the default.
    rewardCodeValidityDays: { type: Number, default: DEFAULT_CODE_VALIDITY_DAYS },
    landingUrl: { type: String, default: null },
    startsAt: { type: Date, default: null },
    endsAt: { type: Date, default: null },
    currency: { type: String, default: DEFAULT_CURRENCY },
    holdDays: { type: Number, default: 0 },
    recurringMonths: { type: Number, default: null },
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
