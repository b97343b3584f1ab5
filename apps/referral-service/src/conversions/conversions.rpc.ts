import { create } from '@bufbuild/protobuf';
import type { ServiceImpl } from '@connectrpc/connect';
import {
  ConversionRewardSchema,
  ConversionSchema,
  ConversionStatus,
  DEFAULT_CURRENCY,
  ReferralStatus,
  RewardSide,
  RewardStatus,
  enumName,
  enumValue,
  type Conversion,
  type ListConversionsRequest,
  type ConversionReward as ConversionRewardMessage,
  type ReferralService,
} from '@ris/contracts';
import { invalidArgument, messageFields, pageFromRequest, pageReply, requiredField, tenantOf } from '@ris/rpc';
import type { CampaignSummary } from '../campaigns/campaign.model';
import { campaignSummaryMessage } from '../campaigns/campaigns.rpc';
import { contextFields } from '../fraud-check/fraud-check';
import type { ConversionFilter, ConversionList } from './conversion-list';
import type { ConversionReward } from './conversion-rewards';
import type { ConversionDoc, ConversionStatusName } from './conversion.model';
import type { ConversionRecorder } from './record-conversion';

export function conversionMessage(doc: ConversionDoc, campaign: CampaignSummary | undefined): Conversion {
  return create(ConversionSchema, {
    ...messageFields(doc),
    id: doc._id,
    status: enumValue(ConversionStatus, doc.status),
    campaign: campaign ? campaignSummaryMessage(campaign) : undefined,
    fraud: {
      riskScore: doc.fraud.riskScore ?? undefined,
      reasons: doc.fraud.reasons,
      warning: doc.fraud.warning ?? undefined,
      flagged: doc.isFlagged,
    },
    fraudCheckDeferred: doc.fraudCheck === 'DEFERRED',
    // Funnel records and records stored before currencies: their campaign's (USD for campaigns as old).
    currency: doc.currency ?? campaign?.currency ?? DEFAULT_CURRENCY,
  });
}

/** A reward of a sale (the conversion, or one of its purchases) as the answer lists it. */
export const conversionRewardMessage = (reward: ConversionReward): ConversionRewardMessage =>
  create(ConversionRewardSchema, { ...reward, side: enumValue(RewardSide, reward.side), status: enumValue(RewardStatus, reward.status) });

type ConversionCalls = Pick<ServiceImpl<typeof ReferralService>, 'recordConversion' | 'listConversions' | 'exportConversions'>;

/** The filters of GET /conversions, from a list or export request. */
/** The filters of a list or export request (the same fields in both). */
const conversionFilter = (req: Omit<ListConversionsRequest, 'page' | '$typeName'>): ConversionFilter => ({
  campaignId: req.campaignId || undefined,
  referralCode: req.referralCode || undefined,
  status: enumName(ConversionStatus, req.status) as ConversionStatusName | undefined,
  userId: req.userId || undefined,
});

/** Conversions at the edge: a conversion recorded with its chain and rewards; the funnel records listed. */
export function conversionCalls(recorder: ConversionRecorder, list: ConversionList): ConversionCalls {
  return {
    async recordConversion(req, ctx) {
      if (req.amount !== undefined && (!Number.isFinite(req.amount) || req.amount < 0)) {
        throw invalidArgument('amount must be a non-negative number');
      }
      const outcome = await recorder.record(tenantOf(ctx), {
        referralCode: requiredField(req.referralCode, 'referralCode'),
        refereeId: requiredField(req.refereeId, 'refereeId'),
        amount: req.amount ?? null,
        currency: req.currency ?? null,
        metadata: req.metadata ?? null,
        context: contextFields(req.context),
        operationKey: req.operationKey,
      });
      const summary = outcome.campaign;
      const direct = outcome.rewards.find((r) => r.side === 'REFERRER' && r.level === 1 && r.rewardId);
      return {
        conversion: conversionMessage(outcome.root, summary),
        upline: outcome.upline.map((record) => conversionMessage(record, summary)),
        referralStatus: enumValue(ReferralStatus, outcome.referral.status),
        rewardCreated: direct !== undefined,
        rewardAmount: direct?.amount ?? 0,
        rewards: outcome.rewards.filter((r) => r.rewardId).map(conversionRewardMessage),
      };
    },

    async listConversions(req, ctx) {
      const page = await list.list(tenantOf(ctx), conversionFilter(req), pageFromRequest(req.page));
      return {
        conversions: page.items.map((record) => conversionMessage(record, page.campaigns.get(record.campaignId))),
        page: pageReply(page),
      };
    },

    async *exportConversions(req, ctx) {
      for await (const batch of list.export(tenantOf(ctx), conversionFilter(req))) {
        yield { conversions: batch.records.map((record) => conversionMessage(record, batch.campaigns.get(record.campaignId))) };
      }
    },
  };
}
