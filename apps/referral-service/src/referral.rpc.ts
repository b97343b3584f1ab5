import { create } from '@bufbuild/protobuf';
import { timestampDate, timestampFromDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import type { ServiceImpl } from '@connectrpc/connect';
import {
  CampaignSchema,
  CampaignStatus,
  ConversionStatus,
  FraudDecision,
  FraudFlagSort,
  FraudFlagStatus,
  FulfillmentType,
  ReferralSchema,
  type ReferralService,
  ReferralStatus,
  TimeseriesInterval,
  enumName,
  enumValue,
  type Campaign,
  type RecordClickRequest,
  type Referral,
  type RewardRule,
} from '@ris/contracts';
import type { Logger } from '@ris/logging';
import { Code, invalidArgument, pageFromRequest, pageReply, requiredField, toItemError } from '@ris/rpc';
import type { CampaignDoc, CampaignStatusName, RewardRuleDoc } from './campaigns/campaign.model';
import type { CampaignInput, CampaignPatch, Campaigns } from './campaigns/campaigns';
import type { BucketInterval } from './stats/campaign-buckets';
import { NO_COUNTS } from './stats/campaign-stats';
import { listConversions } from './conversions/conversion-list';
import type { ConversionStatusName } from './conversions/conversion.model';
import { conversionRewardToProto, conversionToProto, flagToProto } from './conversion-proto';
import { contextFields } from './fraud-check/fraud-check';
import type { FlagStatus } from './flags/fraud-flag.model';
import type { FlagEvidence } from './flags/fraud-flag-evidence';
import type { Decision, FlagOrder, FraudFlags } from './flags/fraud-flags';
import type { ConversionRecorder } from './conversions/record-conversion';
import type { ReferralCountersDoc } from './referrals/referral-counters.model';
import { listReferrals } from './referrals/referral-list';
import type { ReferralDoc } from './referrals/referral.model';
import type { ReferralStore } from './referral-store';
import type { Referrals } from './referrals/referrals';
import { referrerStats } from './stats/referrer-stats';

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
    rewardCodeValidityDays: doc.rewardCodeValidityDays,
    landingUrl: doc.landingUrl ?? undefined,
  });
}

function referralToProto(doc: ReferralDoc, campaign: Pick<CampaignDoc, '_id' | 'name' | 'status'>, counters: ReferralCountersDoc | null): Referral {
  const completed = (counters?.conversions?.L1 ?? 0) > 0;
  return create(ReferralSchema, {
    id: doc._id,
    referralCode: doc.code,
    referrerId: doc.referrerId,
    refereeId: doc.refereeId ?? undefined,
    status: enumValue(ReferralStatus, completed ? 'COMPLETED' : doc.status),
    level: doc.level,
    rewardAmount: counters?.rewardAmount ?? 0,
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

export interface ReferralRpcDeps {
  store: ReferralStore;
  campaigns: Campaigns;
  referrals: Referrals;
  recorder: ConversionRecorder;
  flags: FraudFlags;
  evidence: FlagEvidence;
  logger: Logger;
}

/** A required timestamp field. */
function requiredTime(ts: Timestamp | undefined, field: string): Date {
  if (!ts) throw invalidArgument(`${field} is required`);
  return timestampDate(ts);
}

export function referralRpc({ store, campaigns, referrals, recorder, flags, evidence, logger }: ReferralRpcDeps): ServiceImpl<typeof ReferralService> {
  /** Referral.status and rewardAmount live in the referral's counters. */
  const countersOf = (appId: string, referralId: string) => store.counters.findOne(appId, { _id: referralId });

  async function recordOneClick(req: RecordClickRequest) {
    const click = await referrals.recordClick(requiredField(req.appId, 'appId'), {
      referralCode: requiredField(req.referralCode, 'referralCode'),
      refereeId: req.refereeId,
      context: contextFields(req.context),
      operationKey: req.operationKey,
    });
    return { clickId: click._id, referralCode: click.code, clickedAt: timestampFromDate(click.clickedAt) };
  }

  /** One click of a batch failed: the others stand; unexpected failures are logged here, as a single call's would be. */
  function clickError(err: unknown) {
    const error = toItemError(err);
    if (error.code === Code.Internal) logger.error({ err }, 'click failed');
    return error;
  }

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
        rewardCodeValidityDays: req.rewardCodeValidityDays,
        landingUrl: req.landingUrl ?? null,
      };
      return { campaign: campaignToProto(await campaigns.create(requiredField(req.appId, 'appId'), input, req.operationKey)) };
    },

    async getCampaign(req) {
      return { campaign: campaignToProto(await campaigns.get(requiredField(req.appId, 'appId'), req.campaignId)) };
    },

    async listCampaigns(req) {
      const page = await campaigns.list(requiredField(req.appId, 'appId'), pageFromRequest(req.page), statusFromProto(req.status));
      return {
        campaigns: page.items.map(campaignToProto),
        page: pageReply(page),
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
        rewardCodeValidityDays: req.rewardCodeValidityDays,
        landingUrl: req.clearLandingUrl ? null : req.landingUrl,
      };
      return { campaign: campaignToProto(await campaigns.update(requiredField(req.appId, 'appId'), req.campaignId, patch)) };
    },

    async createReferral(req) {
      const appId = requiredField(req.appId, 'appId');
      const { referral, created } = await referrals.create(appId, {
        campaignId: requiredField(req.campaignId, 'campaignId'),
        referrerId: requiredField(req.referrerId, 'referrerId'),
        refereeId: req.refereeId,
        referrerUsername: req.referrerUsername,
        referrerEmail: req.referrerEmail,
        context: contextFields(req.context),
        operationKey: req.operationKey,
      });
      const [campaign, counters] = await Promise.all([campaigns.get(appId, referral.campaignId), countersOf(appId, referral._id)]);
      return { referral: referralToProto(referral, campaign, counters), created };
    },

    async getReferral(req) {
      const appId = requiredField(req.appId, 'appId');
      const referral = await referrals.getByCode(appId, requiredField(req.referralCode, 'referralCode'));
      const [campaign, counters] = await Promise.all([campaigns.get(appId, referral.campaignId), countersOf(appId, referral._id)]);
      return { referral: referralToProto(referral, campaign, counters) };
    },

    async listReferrals(req) {
      const appId = requiredField(req.appId, 'appId');
      const page = await listReferrals(store, appId, { campaignId: req.campaignId || undefined, referrerId: req.referrerId || undefined }, pageFromRequest(req.page));
      return {
        referrals: page.items.flatMap((doc) => {
          // A referral's campaign is never deleted; without it the referral is not shown rather than shown half.
          const campaign = page.campaigns.get(doc.campaignId);
          return campaign ? [referralToProto(doc, campaign, page.counters.get(doc._id) ?? null)] : [];
        }),
        page: pageReply(page),
      };
    },

    async resolveReferralLink(req) {
      const link = await referrals.resolveLink(requiredField(req.referralCode, 'referralCode'));
      return {
        appId: link.appId,
        referralCode: link.code,
        referralId: link.referralId,
        referrerId: link.referrerId,
        campaign: { id: link.campaign._id, name: link.campaign.name, status: enumValue(CampaignStatus, link.campaign.status) },
        landingUrl: link.campaign.landingUrl ?? undefined,
      };
    },

    recordClick: recordOneClick,

    async recordClicks(req) {
      if (req.clicks.length < 1 || req.clicks.length > 1000) throw invalidArgument('clicks must hold 1 to 1000 clicks');
      const settled = await Promise.allSettled(req.clicks.map(recordOneClick));
      return {
        outcomes: settled.map((result) =>
          result.status === 'fulfilled'
            ? { outcome: { case: 'click' as const, value: result.value } }
            : { outcome: { case: 'error' as const, value: clickError(result.reason) } },
        ),
      };
    },

    async recordConversion(req) {
      if (req.amount !== undefined && (!Number.isFinite(req.amount) || req.amount < 0)) {
        throw invalidArgument('amount must be a non-negative number');
      }
      const outcome = await recorder.record(requiredField(req.appId, 'appId'), {
        referralCode: requiredField(req.referralCode, 'referralCode'),
        refereeId: requiredField(req.refereeId, 'refereeId'),
        amount: req.amount ?? null,
        metadata: req.metadata ?? null,
        context: contextFields(req.context),
        operationKey: req.operationKey,
      });
      const summary = outcome.campaign;
      const direct = outcome.rewards.find((r) => r.side === 'REFERRER' && r.level === 1 && r.rewardId);
      return {
        conversion: conversionToProto(outcome.root, summary),
        upline: outcome.upline.map((record) => conversionToProto(record, summary)),
        referralStatus: enumValue(ReferralStatus, outcome.referral.status),
        rewardCreated: direct !== undefined,
        rewardAmount: direct?.amount ?? 0,
        rewards: outcome.rewards.filter((r) => r.rewardId).map(conversionRewardToProto),
      };
    },

    async listConversions(req) {
      const page = await listConversions(
        store,
        requiredField(req.appId, 'appId'),
        {
          campaignId: req.campaignId || undefined,
          referralCode: req.referralCode || undefined,
          status: enumName(ConversionStatus, req.status) as ConversionStatusName | undefined,
          userId: req.userId || undefined,
        },
        pageFromRequest(req.page),
      );
      return {
        conversions: page.items.map((record) => conversionToProto(record, page.campaigns.get(record.campaignId))),
        page: pageReply(page),
      };
    },

    async getCampaignStats(req) {
      const appId = requiredField(req.appId, 'appId');
      const campaignId = requiredField(req.campaignId, 'campaignId');
      // One read when the campaign has counters (they exist only for this
      // app's campaigns); otherwise the campaign decides between zeros and 404.
      const counts = await store.stats.read(appId, campaignId);
      if (counts) return counts;
      await campaigns.get(appId, campaignId);
      return NO_COUNTS;
    },

    async getCampaignTimeseries(req) {
      const appId = requiredField(req.appId, 'appId');
      const campaignId = requiredField(req.campaignId, 'campaignId');
      const interval = enumName(TimeseriesInterval, req.interval) as BucketInterval | undefined;
      if (!interval) throw invalidArgument('interval must be HOUR or DAY');
      const series = await store.stats.buckets.series(appId, campaignId, interval, requiredTime(req.from, 'from'), requiredTime(req.to, 'to'));
      // Buckets exist only for this app's campaigns; without any, the campaign decides between zeros and 404.
      if (series.stored === 0) await campaigns.get(appId, campaignId);
      return {
        buckets: series.buckets.map((b) => ({ ...b, start: timestampFromDate(b.start) })),
        from: timestampFromDate(series.from),
        to: timestampFromDate(series.to),
      };
    },

    async getUserStats(req) {
      const appId = requiredField(req.appId, 'appId');
      if (req.campaignId) await campaigns.get(appId, req.campaignId);
      return referrerStats(store, appId, requiredField(req.userId, 'userId'), req.campaignId || undefined);
    },

    async listFraudFlags(req) {
      const page = await flags.list(
        requiredField(req.appId, 'appId'),
        pageFromRequest(req.page),
        { status: enumName(FraudFlagStatus, req.status) as FlagStatus | undefined, campaignId: req.campaignId || undefined },
        (enumName(FraudFlagSort, req.sort) as FlagOrder | undefined) ?? 'CREATED_AT',
      );
      return { flags: page.items.map(flagToProto), page: pageReply(page) };
    },

    async getFraudFlag(req) {
      const flag = await flags.get(requiredField(req.appId, 'appId'), requiredField(req.flagId, 'flagId'));
      return { flag: flagToProto(flag), evidence: (await evidence.of(flag)) ?? undefined };
    },

    async resolveFraudFlag(req) {
      const decision = enumName(FraudDecision, req.decision) as Decision | undefined;
      if (!decision) throw invalidArgument('decision must be APPROVE or REJECT');
      const resolvedBy = req.resolvedBy?.operatorId ? { operatorId: req.resolvedBy.operatorId, email: req.resolvedBy.email } : null;
      const flag = await flags.resolve(
        requiredField(req.appId, 'appId'),
        requiredField(req.flagId, 'flagId'),
        decision,
        req.note?.trim() || null,
        req.operationKey,
        resolvedBy,
      );
      return { flag: flagToProto(flag) };
    },
  };
}
