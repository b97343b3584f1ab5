import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { ServiceImpl } from '@connectrpc/connect';
import {
  ClawbackSchema,
  DEFAULT_CURRENCY,
  FulfillmentType,
  RewardSchema,
  RewardService,
  RewardSide,
  RewardStatus,
  enumName,
  enumValue,
  type Clawback,
  type ListRewardsRequest,
  type Reward,
  type RewardAmounts,
} from '@ris/contracts';
import { invalidArgument, messageFields, pageFromRequest, pageReply, requiredField, rpcService, tenantOf, type RpcService } from '@ris/rpc';
import { claimReward } from './codes/claim-reward';
import { validateCode } from './codes/validate-code';
import { cancelReward } from './moves/cancel-reward';
import { payoutRpc } from './payouts/payouts.rpc';
import { redeemReward } from './moves/redeem-reward';
import { createReward } from './rewards/create-reward';
import { approveConversionRewards, cancelConversionRewards } from './rewards/review-conversion-rewards';
import type { FulfillmentTypeName, RewardDoc, RewardSideName, RewardStatusName } from './rewards/reward.model';
import { clawbackTotals, listClawbacks } from './reversals/clawbacks';
import type { RewardReversalDoc } from './reversals/reward-reversal.model';
import { reverseRewards } from './reversals/reverse-rewards';
import { conversionRewards, exportRewards, listRewards, rewardHistory, rewardOf, rewardStats } from './rewards/reward-reads';
import type { RewardFilter } from './rewards/reward.repository';
import type { RewardStore } from './rewards/reward-store';
import type { AmountsByStatus } from './totals/reward-totals.model';

/** A reward as the contract shows it: the stored fields of the same name as they are (messageFields); enums by name. */
export function rewardToProto(doc: RewardDoc): Reward {
  return create(RewardSchema, {
    ...messageFields(doc),
    id: doc._id,
    side: enumValue(RewardSide, doc.side),
    fulfillmentType: enumValue(FulfillmentType, doc.fulfillmentType),
    status: enumValue(RewardStatus, doc.status),
    currency: doc.currency ?? DEFAULT_CURRENCY,
    // Rewards stored before reversals: never reduced.
    earnedAmount: doc.earnedAmount ?? doc.amount,
    reversedAmount: doc.reversedAmount ?? 0,
    clawedBack: doc.clawedBack ?? 0,
  });
}

/** A clawback as the contract shows it (a done CLAWBACK reversal of a reward). */
const clawbackToProto = (doc: RewardReversalDoc): Clawback =>
  create(ClawbackSchema, {
    id: doc._id,
    rewardId: doc.rewardId,
    userId: doc.userId,
    campaignId: doc.campaignId,
    conversionId: doc.conversionId,
    purchaseId: doc.purchaseId ?? undefined,
    reversalId: doc.reversalId,
    amount: doc.clawback,
    currency: doc.currency,
    reason: doc.reason,
    createdAt: timestampFromDate(doc.createdAt),
    payoutId: doc.payoutId ?? undefined,
    settledAt: doc.settledAt ? timestampFromDate(doc.settledAt) : undefined,
  });

/** The filters of a list or export request (the same fields in both). */
const rewardFilter = (req: Omit<ListRewardsRequest, 'page' | '$typeName'>): RewardFilter => ({
  userId: req.userId || undefined,
  status: enumName(RewardStatus, req.status) as RewardStatusName | undefined,
  fulfillmentType: enumName(FulfillmentType, req.fulfillmentType) as FulfillmentTypeName | undefined,
});

const amountsProto = (a: AmountsByStatus): RewardAmounts =>
  ({ pending: a.pending, approved: a.approved, paid: a.paid, cancelled: a.cancelled, count: a.count }) as RewardAmounts;

/**
 * The reward service at its edge: requests checked and handed to the
 * reward operations, answers built as messages. Every call acts for the
 * app of its request (tenantOf).
 */
export function rewardService(store: RewardStore): RpcService {
  return rpcService(RewardService, rewardRpc(store), { tenant: { unscoped: {} } });
}

function rewardRpc(store: RewardStore): ServiceImpl<typeof RewardService> {
  return {
    ...payoutRpc(store),
    async createReward(req, ctx) {
      const side = enumName(RewardSide, req.side) as RewardSideName | undefined;
      const fulfillmentType = enumName(FulfillmentType, req.fulfillmentType) as FulfillmentTypeName | undefined;
      if (!side) throw invalidArgument('side is required');
      if (!fulfillmentType) throw invalidArgument('fulfillmentType is required');
      const result = await createReward(store, tenantOf(ctx), {
        conversionId: requiredField(req.conversionId, 'conversionId'),
        side,
        level: req.level,
        userId: requiredField(req.userId, 'userId'),
        campaignId: requiredField(req.campaignId, 'campaignId'),
        referralId: requiredField(req.referralId, 'referralId'),
        amount: req.amount,
        currency: req.currency,
        purchaseId: req.purchaseId ?? null,
        fulfillmentType,
        hold: req.hold,
        holdDays: req.holdDays,
        shareOfSale: req.shareOfSale,
        maxRewardsPerUser: req.maxRewardsPerUser ?? null,
        codeValidityDays: req.codeValidityDays,
      });
      return { reward: result.reward ? rewardToProto(result.reward) : undefined, created: result.created, capped: result.capped };
    },

    async approveConversionRewards(req, ctx) {
      const moved = await approveConversionRewards(store, tenantOf(ctx), requiredField(req.conversionId, 'conversionId'));
      return { rewards: moved.map(rewardToProto) };
    },

    async cancelConversionRewards(req, ctx) {
      const moved = await cancelConversionRewards(store, tenantOf(ctx), requiredField(req.conversionId, 'conversionId'));
      return { rewards: moved.map(rewardToProto) };
    },

    async listConversionRewards(req, ctx) {
      const rewards = await conversionRewards(store, tenantOf(ctx), requiredField(req.conversionId, 'conversionId'), req.purchaseId ?? null);
      return { rewards: rewards.map(rewardToProto) };
    },

    async getReward(req, ctx) {
      return { reward: rewardToProto(await rewardOf(store, tenantOf(ctx), requiredField(req.rewardId, 'rewardId'))) };
    },

    async getRewardHistory(req, ctx) {
      const moves = await rewardHistory(store, tenantOf(ctx), requiredField(req.rewardId, 'rewardId'));
      return {
        moves: moves.map((move) => ({
          from: move.from === 'NEW' ? undefined : enumValue(RewardStatus, move.from),
          to: enumValue(RewardStatus, move.to),
          at: timestampFromDate(move.at),
          note: typeof move.fields.cancellationNote === 'string' ? move.fields.cancellationNote : undefined,
        })),
      };
    },

    async listRewards(req, ctx) {
      const page = await listRewards(store, tenantOf(ctx), rewardFilter(req), pageFromRequest(req.page));
      return {
        rewards: page.items.map(rewardToProto),
        page: pageReply(page),
      };
    },

    async *exportRewards(req, ctx) {
      for await (const batch of exportRewards(store, tenantOf(ctx), rewardFilter(req))) yield { rewards: batch.map(rewardToProto) };
    },

    async claimReward(req, ctx) {
      return { reward: rewardToProto(await claimReward(store, tenantOf(ctx), requiredField(req.rewardId, 'rewardId'))) };
    },

    async validateCode(req, ctx) {
      const result = await validateCode(store, tenantOf(ctx), requiredField(req.code, 'code'));
      return {
        valid: result.valid,
        code: result.code,
        reward: result.reward ? rewardToProto(result.reward) : undefined,
        reason: result.reason ?? undefined,
      };
    },

    async cancelReward(req, ctx) {
      const reward = await cancelReward(store, tenantOf(ctx), requiredField(req.rewardId, 'rewardId'), req.note ?? null, req.operationKey);
      return { reward: rewardToProto(reward) };
    },

    async redeemReward(req, ctx) {
      const reward = await redeemReward(store, tenantOf(ctx), requiredField(req.rewardId, 'rewardId'), requiredField(req.userId, 'userId'), req.operationKey);
      return { reward: rewardToProto(reward) };
    },

    async reverseRewards(req, ctx) {
      const results = await reverseRewards(store, tenantOf(ctx), {
        conversionId: requiredField(req.conversionId, 'conversionId'),
        purchaseId: req.purchaseId ?? null,
        reversalId: requiredField(req.reversalId, 'reversalId'),
        full: req.full,
        remainingShare: req.remainingShare,
        reason: requiredField(req.reason, 'reason'),
        note: req.note ?? null,
      });
      return {
        reversals: results.map(({ reward, reversal }) => ({
          reward: rewardToProto(reward),
          fromAmount: reversal.from,
          toAmount: reversal.to,
          effect: reversal.effect ?? 'UNCHANGED',
          clawbackAmount: reversal.clawback,
        })),
      };
    },

    async listClawbacks(req, ctx) {
      const appId = tenantOf(ctx);
      const userId = req.userId || undefined;
      const [page, totals] = await Promise.all([listClawbacks(store, appId, userId, pageFromRequest(req.page)), clawbackTotals(store, appId, userId)]);
      return {
        clawbacks: page.items.map(clawbackToProto),
        page: pageReply(page),
        totals: [...totals.entries()].map(([currency, amount]) => ({ currency, amount })),
      };
    },

    async getRewardStats(req, ctx) {
      if (!req.campaignId && !req.userId) throw invalidArgument('campaignId or userId is required');
      const view = await rewardStats(store, tenantOf(ctx), { campaignId: req.campaignId, userId: req.userId });
      return {
        total: amountsProto(view.total),
        referrerLevels: view.levels.map((l) => ({ level: l.level, amounts: amountsProto(l.amounts) })),
        referee: amountsProto(view.referee),
      };
    },
  };
}
