import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { ServiceImpl } from '@connectrpc/connect';
import {
  CampaignSchema,
  CampaignStatus,
  FulfillmentType,
  ReferralSchema,
  type ReferralService,
  ReferralStatus,
  enumName,
  enumValue,
  type Campaign,
  type Referral,
  type RewardRule,
} from '@ris/contracts';
import { invalidArgument } from '@ris/rpc';
import type { CampaignDoc, CampaignStatusName, RewardRuleDoc } from './campaign.model';
import type { CampaignInput, CampaignPatch, Campaigns } from './campaigns';
import type { ReferralDoc } from './referral.model';
import type { Referrals } from './referrals';

function rewardRuleFromProto(rule: RewardRule | undefined, field: string): RewardRuleDoc | undefined {
  if (!rule) return undefined;
  const fulfillmentType = enumName(FulfillmentType, rule.fulfillmentType);
  if (!fulfillmentType) throw invalidArgument(`${field}.fulfillmentType is required`);
  return { amount: rule.amount, fulfillmentType };
}

const statusFromProto = (status: CampaignStatus) => enumName(CampaignStatus, status) as CampaignStatusName | undefined;

function campaignToProto(doc: CampaignDoc): Campaign {
  const rule = (r: RewardRuleDoc) => ({ amount: r.amount, fulfillmentType: enumValue(FulfillmentType, r.fulfillmentType) });
  return create(CampaignSchema, {
    id: doc._id,
    name: doc.name,
    status: enumValue(CampaignStatus, doc.status),
    referrerReward: rule(doc.referrerReward),
    refereeReward: doc.refereeReward ? rule(doc.refereeReward) : undefined,
    levels: doc.levels,
    attributionWindowDays: doc.attributionWindowDays,
    maxRewardsPerReferrer: doc.maxRewardsPerReferrer ?? undefined,
    fraud: doc.fraud,
    createdAt: timestampFromDate(doc.createdAt),
    updatedAt: timestampFromDate(doc.updatedAt),
  });
}

function referralToProto(doc: ReferralDoc, campaign: Pick<CampaignDoc, '_id' | 'name' | 'status'>): Referral {
  return create(ReferralSchema, {
    id: doc._id,
    referralCode: doc.code,
    referrerId: doc.referrerId,
    refereeId: doc.refereeId ?? undefined,
    status: enumValue(ReferralStatus, doc.status),
    level: doc.level,
    rewardAmount: doc.rewardAmount,
    isFlagged: doc.isFlagged,
    createdAt: timestampFromDate(doc.createdAt),
    campaign: { id: campaign._id, name: campaign.name, status: enumValue(CampaignStatus, campaign.status) },
    referrerUsername: doc.referrerUsername ?? undefined,
    referrerEmail: doc.referrerEmail ?? undefined,
    fraud: {
      riskScore: doc.fraud.riskScore ?? undefined,
      reasons: doc.fraud.reasons,
      warning: doc.fraud.warning ?? undefined,
      flagged: doc.isFlagged,
    },
  });
}

const required = (value: string, field: string) => {
  if (!value.trim()) throw invalidArgument(`${field} is required`);
  return value.trim();
};

export function referralRpc(campaigns: Campaigns, referrals: Referrals): ServiceImpl<typeof ReferralService> {
  return {
    async createCampaign(req) {
      const referrerReward = rewardRuleFromProto(req.referrerReward, 'referrerReward');
      if (!referrerReward) throw invalidArgument('referrerReward is required');
      const input: CampaignInput = {
        name: req.name,
        status: statusFromProto(req.status),
        referrerReward,
        refereeReward: rewardRuleFromProto(req.refereeReward, 'refereeReward') ?? null,
        levels: req.levels.map((l) => ({ level: l.level, amount: l.amount })),
        attributionWindowDays: req.attributionWindowDays,
        maxRewardsPerReferrer: req.maxRewardsPerReferrer ?? null,
        fraud: req.fraud ? { flagThreshold: req.fraud.flagThreshold } : undefined,
      };
      return { campaign: campaignToProto(await campaigns.create(required(req.appId, 'appId'), input)) };
    },

    async getCampaign(req) {
      return { campaign: campaignToProto(await campaigns.get(required(req.appId, 'appId'), req.campaignId)) };
    },

    async listCampaigns(req) {
      const page = await campaigns.list(
        required(req.appId, 'appId'),
        { page: Math.max(1, req.page?.page || 1), limit: Math.min(100, Math.max(1, req.page?.limit || 25)) },
        statusFromProto(req.status),
      );
      return {
        campaigns: page.items.map(campaignToProto),
        page: { page: page.page, limit: page.limit, totalItems: page.totalItems },
      };
    },

    async updateCampaign(req) {
      const patch: CampaignPatch = {
        name: req.name,
        status: statusFromProto(req.status),
        referrerReward: rewardRuleFromProto(req.referrerReward, 'referrerReward'),
        refereeReward: req.clearRefereeReward ? null : rewardRuleFromProto(req.refereeReward, 'refereeReward'),
        levels: req.replaceLevels ? req.levels.map((l) => ({ level: l.level, amount: l.amount })) : undefined,
        attributionWindowDays: req.attributionWindowDays,
        maxRewardsPerReferrer: req.clearMaxRewardsPerReferrer ? null : req.maxRewardsPerReferrer,
        fraud: req.fraud ? { flagThreshold: req.fraud.flagThreshold } : undefined,
      };
      return { campaign: campaignToProto(await campaigns.update(required(req.appId, 'appId'), req.campaignId, patch)) };
    },

    async createReferral(req) {
      const appId = required(req.appId, 'appId');
      const { referral, created } = await referrals.create(appId, {
        campaignId: required(req.campaignId, 'campaignId'),
        referrerId: required(req.referrerId, 'referrerId'),
        refereeId: req.refereeId,
        referrerUsername: req.referrerUsername,
        referrerEmail: req.referrerEmail,
        context: req.context,
      });
      const campaign = await campaigns.get(appId, referral.campaignId);
      return { referral: referralToProto(referral, campaign), created };
    },

    async getReferral(req) {
      const appId = required(req.appId, 'appId');
      const referral = await referrals.getByCode(appId, required(req.referralCode, 'referralCode'));
      const campaign = await campaigns.get(appId, referral.campaignId);
      return { referral: referralToProto(referral, campaign) };
    },

    async recordClick(req) {
      const click = await referrals.recordClick(required(req.appId, 'appId'), {
        referralCode: required(req.referralCode, 'referralCode'),
        refereeId: req.refereeId,
        context: req.context,
      });
      return { clickId: click._id, referralCode: click.code, clickedAt: timestampFromDate(click.clickedAt) };
    },
  };
}
