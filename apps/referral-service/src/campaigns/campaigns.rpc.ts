import { create } from '@bufbuild/protobuf';
import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import type { ServiceImpl } from '@connectrpc/connect';
import {
  CampaignEffectiveStatus,
  CampaignSchema,
  CampaignStatus,
  FulfillmentType,
  enumName,
  enumValue,
  type Campaign,
  type LevelReward,
  type ReferralService,
  type RewardRule,
} from '@ris/contracts';
import { invalidArgument, messageFields, pageFromRequest, pageReply, tenantOf } from '@ris/rpc';
import type { CampaignDoc, CampaignStatusName, CampaignSummary, LevelRewardDoc, RewardRuleDoc, RuleTerms } from './campaign.model';
import type { CampaignInput, CampaignPatch, Campaigns } from './campaigns';
import { effectiveStatus, type CampaignEffectiveStatusName } from './campaign-schedule';

/** A rule's amount, or its percent and cap (unset in the message: none). */
const termsFromProto = (rule: RewardRule | LevelReward): RuleTerms => ({ amount: rule.amount, percent: rule.percent ?? null, maxAmount: rule.maxAmount ?? null });

/** A stored rule's terms as the message carries them (a rule stored before percentages: a fixed amount). */
const termsMessage = (rule: RuleTerms) => ({ amount: rule.amount, percent: rule.percent ?? undefined, maxAmount: rule.maxAmount ?? undefined });

function rewardRuleFromProto(rule: RewardRule | undefined, field: string): RewardRuleDoc | undefined {
  if (!rule) return undefined;
  const fulfillmentType = enumName(FulfillmentType, rule.fulfillmentType);
  if (!fulfillmentType) throw invalidArgument(`${field}.fulfillmentType is required`);
  return { ...termsFromProto(rule), fulfillmentType };
}

const levelsFromProto = (levels: LevelReward[]): LevelRewardDoc[] => levels.map((l) => ({ level: l.level, ...termsFromProto(l) }));

const statusFromProto = (status: CampaignStatus) => enumName(CampaignStatus, status) as CampaignStatusName | undefined;

const rewardRuleMessage = (rule: RewardRuleDoc) => ({ ...termsMessage(rule), fulfillmentType: enumValue(FulfillmentType, rule.fulfillmentType) });

/** A bound of the schedule sent: unset → undefined (not changed, or none on create). */
const scheduleBound = (sent: Timestamp | undefined) => (sent ? timestampDate(sent) : undefined);

/** What the campaign does now, as the message says it (derived at each read, never stored). */
const effectiveStatusValue = (campaign: CampaignSummary) => enumValue(CampaignEffectiveStatus, effectiveStatus(campaign, new Date()));

export function campaignMessage(doc: CampaignDoc): Campaign {
  return create(CampaignSchema, {
    ...messageFields(doc),
    id: doc._id,
    status: enumValue(CampaignStatus, doc.status),
    effectiveStatus: effectiveStatusValue(doc),
    referrerReward: rewardRuleMessage(doc.referrerReward),
    refereeReward: doc.refereeReward ? rewardRuleMessage(doc.refereeReward) : undefined,
    levels: doc.levels.map((l) => ({ level: l.level, ...termsMessage(l) })),
  });
}

/** A campaign's name and status, as a referral, a conversion or a hosted link shows it. */
export const campaignSummaryMessage = (campaign: CampaignSummary) => ({
  id: campaign._id,
  name: campaign.name,
  status: enumValue(CampaignStatus, campaign.status),
  effectiveStatus: effectiveStatusValue(campaign),
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
        levels: levelsFromProto(req.levels),
        attributionWindowDays: req.attributionWindowDays,
        maxRewardsPerReferrer: req.maxRewardsPerReferrer ?? null,
        fraud: req.fraud ? { flagThreshold: req.fraud.flagThreshold } : undefined,
        rewardCodeValidityDays: req.rewardCodeValidityDays,
        landingUrl: req.landingUrl ?? null,
        startsAt: scheduleBound(req.startsAt) ?? null,
        endsAt: scheduleBound(req.endsAt) ?? null,
        currency: req.currency,
        holdDays: req.holdDays,
        recurringMonths: req.recurringMonths ?? null,
      };
      return { campaign: campaignMessage(await campaigns.create(tenantOf(ctx), input, req.operationKey)) };
    },

    async getCampaign(req, ctx) {
      return { campaign: campaignMessage(await campaigns.get(tenantOf(ctx), req.campaignId)) };
    },

    async listCampaigns(req, ctx) {
      const effective = enumName(CampaignEffectiveStatus, req.effectiveStatus) as CampaignEffectiveStatusName | undefined;
      const page = await campaigns.list(tenantOf(ctx), pageFromRequest(req.page), statusFromProto(req.status), effective);
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
        levels: req.replaceLevels ? levelsFromProto(req.levels) : undefined,
        attributionWindowDays: req.attributionWindowDays,
        maxRewardsPerReferrer: req.clearMaxRewardsPerReferrer ? null : req.maxRewardsPerReferrer,
        fraud: req.fraud ? { flagThreshold: req.fraud.flagThreshold } : undefined,
        rewardCodeValidityDays: req.rewardCodeValidityDays,
        landingUrl: req.clearLandingUrl ? null : req.landingUrl,
        startsAt: req.clearStartsAt ? null : scheduleBound(req.startsAt),
        endsAt: req.clearEndsAt ? null : scheduleBound(req.endsAt),
        currency: req.currency,
        holdDays: req.holdDays,
        recurringMonths: req.clearRecurringMonths ? null : req.recurringMonths,
      };
      return { campaign: campaignMessage(await campaigns.update(tenantOf(ctx), req.campaignId, patch)) };
    },
  };
}
