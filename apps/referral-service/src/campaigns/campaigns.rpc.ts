import { create } from '@bufbuild/protobuf';
import type { ServiceImpl } from '@connectrpc/connect';
import { CampaignSchema, CampaignStatus, FulfillmentType, enumName, enumValue, type Campaign, type ReferralService, type RewardRule } from '@ris/contracts';
import { invalidArgument, messageFields, pageFromRequest, pageReply, tenantOf } from '@ris/rpc';
import type { CampaignDoc, CampaignStatusName, CampaignSummary, RewardRuleDoc } from './campaign.model';
import type { CampaignInput, CampaignPatch, Campaigns } from './campaigns';

function rewardRuleFromProto(rule: RewardRule | undefined, field: string): RewardRuleDoc | undefined {
  if (!rule) return undefined;
  const fulfillmentType = enumName(FulfillmentType, rule.fulfillmentType);
  if (!fulfillmentType) throw invalidArgument(`${field}.fulfillmentType is required`);
  return { amount: rule.amount, fulfillmentType };
}

const statusFromProto = (status: CampaignStatus) => enumName(CampaignStatus, status) as CampaignStatusName | undefined;

const rewardRuleMessage = (rule: RewardRuleDoc) => ({ amount: rule.amount, fulfillmentType: enumValue(FulfillmentType, rule.fulfillmentType) });

export function campaignMessage(doc: CampaignDoc): Campaign {
  return create(CampaignSchema, {
    ...messageFields(doc),
    id: doc._id,
    status: enumValue(CampaignStatus, doc.status),
    referrerReward: rewardRuleMessage(doc.referrerReward),
    refereeReward: doc.refereeReward ? rewardRuleMessage(doc.refereeReward) : undefined,
  });
}

/** A campaign's name and status, as a referral, a conversion or a hosted link shows it. */
export const campaignSummaryMessage = (campaign: CampaignSummary) => ({
  id: campaign._id,
  name: campaign.name,
  status: enumValue(CampaignStatus, campaign.status),
});

type CampaignCalls = Pick<ServiceImpl<typeof ReferralService>, 'createCampaign' | 'getCampaign' | 'listCampaigns' | 'updateCampaign'>;

/** Campaigns at the edge: requests checked and turned into settings, campaigns into messages. */
export function campaignCalls(campaigns: Campaigns): CampaignCalls {
  return {
    async createCampaign(req, ctx) {
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
        rewardCodeValidityDays: req.rewardCodeValidityDays,
        landingUrl: req.landingUrl ?? null,
      };
      return { campaign: campaignMessage(await campaigns.create(tenantOf(ctx), input, req.operationKey)) };
    },

    async getCampaign(req, ctx) {
      return { campaign: campaignMessage(await campaigns.get(tenantOf(ctx), req.campaignId)) };
    },

    async listCampaigns(req, ctx) {
      const page = await campaigns.list(tenantOf(ctx), pageFromRequest(req.page), statusFromProto(req.status));
      return {
        campaigns: page.items.map(campaignMessage),
        page: pageReply(page),
      };
    },

    async updateCampaign(req, ctx) {
      const patch: CampaignPatch = {
        name: req.name,
        status: statusFromProto(req.status),
        referrerReward: rewardRuleFromProto(req.referrerReward, 'referrerReward'),
        refereeReward: req.clearRefereeReward ? null : rewardRuleFromProto(req.refereeReward, 'refereeReward'),
        levels: req.replaceLevels ? req.levels.map((l) => ({ level: l.level, amount: l.amount })) : undefined,
        attributionWindowDays: req.attributionWindowDays,
        maxRewardsPerReferrer: req.clearMaxRewardsPerReferrer ? null : req.maxRewardsPerReferrer,
        fraud: req.fraud ? { flagThreshold: req.fraud.flagThreshold } : undefined,
        rewardCodeValidityDays: req.rewardCodeValidityDays,
        landingUrl: req.clearLandingUrl ? null : req.landingUrl,
      };
      return { campaign: campaignMessage(await campaigns.update(tenantOf(ctx), req.campaignId, patch)) };
    },
  };
}
