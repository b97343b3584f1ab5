import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { ServiceImpl } from '@connectrpc/connect';
import {
  FulfillmentType,
  RewardSchema,
  type RewardService,
  RewardSide,
  RewardStatus,
  enumName,
  enumValue,
  type Reward,
  type RewardAmounts,
} from '@ris/contracts';
import { invalidArgument, pageFromRequest, pageReply, requiredField } from '@ris/rpc';
import { claimReward } from './codes/claim-reward';
import { createReward } from './rewards/create-reward';
import { redeemReward } from './moves/redeem-reward';
import { approveConversionRewards, cancelConversionRewards } from './rewards/review-conversion-rewards';
import type { RewardDoc, RewardSideName, RewardStatusName } from './rewards/reward.model';
import type { RewardStore } from './rewards/reward-store';
import type { AmountsByStatus } from './totals/reward-totals.model';
import { validateCode } from './codes/validate-code';

const ts = (date: Date | null | undefined) => (date ? timestampFromDate(date) : undefined);

export function rewardToProto(doc: RewardDoc): Reward {
  return create(RewardSchema, {
    id: doc._id,
    userId: doc.userId,
    campaignId: doc.campaignId,
    referralId: doc.referralId,
    conversionId: doc.conversionId,
    side: enumValue(RewardSide, doc.side),
    level: doc.level,
    amount: doc.amount,
    fulfillmentType: enumValue(FulfillmentType, doc.fulfillmentType),
    status: enumValue(RewardStatus, doc.status),
    discountCode: doc.discountCode,
    expiresAt: ts(doc.expiresAt),
    claimedAt: ts(doc.claimedAt),
    redeemedAt: ts(doc.redeemedAt),
    createdAt: ts(doc.createdAt),
    updatedAt: ts(doc.updatedAt),
  });
}

const amountsProto = (a: AmountsByStatus): RewardAmounts =>
  ({ pending: a.pending, approved: a.approved, paid: a.paid, cancelled: a.cancelled, count: a.count }) as RewardAmounts;

export function rewardRpc(store: RewardStore): ServiceImpl<typeof RewardService> {
  return {
    async createReward(req) {
      const side = enumName(RewardSide, req.side) as RewardSideName | undefined;
      const fulfillmentType = enumName(FulfillmentType, req.fulfillmentType);
      if (!side) throw invalidArgument('side is required');
      if (!fulfillmentType) throw invalidArgument('fulfillmentType is required');
      const result = await createReward(store, requiredField(req.appId, 'appId'), {
        conversionId: requiredField(req.conversionId, 'conversionId'),
        side,
        level: req.level,
        userId: requiredField(req.userId, 'userId'),
        campaignId: requiredField(req.campaignId, 'campaignId'),
        referralId: requiredField(req.referralId, 'referralId'),
        amount: req.amount,
        fulfillmentType,
        hold: req.hold,
        maxRewardsPerUser: req.maxRewardsPerUser ?? null,
        codeValidityDays: req.codeValidityDays,
      });
      return { reward: result.reward ? rewardToProto(result.reward) : undefined, created: result.created, capped: result.capped };
    },

    async approveConversionRewards(req) {
      const moved = await approveConversionRewards(store, requiredField(req.appId, 'appId'), requiredField(req.conversionId, 'conversionId'));
      return { rewards: moved.map(rewardToProto) };
    },

    async cancelConversionRewards(req) {
      const moved = await cancelConversionRewards(store, requiredField(req.appId, 'appId'), requiredField(req.conversionId, 'conversionId'));
      return { rewards: moved.map(rewardToProto) };
    },

    async listConversionRewards(req) {
      const appId = requiredField(req.appId, 'appId');
      // By the unique (appId, conversionId, side, level) index, in its order.
      const rewards = await store.rewards.find(appId, { conversionId: requiredField(req.conversionId, 'conversionId') }, { sort: { side: 1, level: 1 } });
      return { rewards: rewards.map(rewardToProto) };
    },

    async getReward(req) {
      return { reward: rewardToProto(await store.get(requiredField(req.appId, 'appId'), requiredField(req.rewardId, 'rewardId'))) };
    },

    async getRewardHistory(req) {
      const appId = requiredField(req.appId, 'appId');
      const reward = await store.get(appId, requiredField(req.rewardId, 'rewardId'));
      const moves = await store.moves.history(appId, reward._id);
      return {
        moves: moves.map((move) => ({
          from: move.from === 'NEW' ? undefined : enumValue(RewardStatus, move.from),
          to: enumValue(RewardStatus, move.to),
          at: timestampFromDate(move.at),
        })),
      };
    },

    async listRewards(req) {
      const filter: Record<string, unknown> = {};
      if (req.userId) filter.userId = req.userId;
      const status = enumName(RewardStatus, req.status) as RewardStatusName | undefined;
      if (status) filter.status = status;
      const fulfillmentType = enumName(FulfillmentType, req.fulfillmentType);
      if (fulfillmentType) filter.fulfillmentType = fulfillmentType;
      const page = await store.rewards.page(requiredField(req.appId, 'appId'), filter, { createdAt: -1, _id: -1 }, pageFromRequest(req.page));
      return {
        rewards: page.items.map(rewardToProto),
        page: pageReply(page),
      };
    },

    async claimReward(req) {
      return { reward: rewardToProto(await claimReward(store, requiredField(req.appId, 'appId'), requiredField(req.rewardId, 'rewardId'))) };
    },

    async validateCode(req) {
      const result = await validateCode(store, requiredField(req.appId, 'appId'), requiredField(req.code, 'code'));
      return {
        valid: result.valid,
        code: result.code,
        reward: result.reward ? rewardToProto(result.reward) : undefined,
        reason: result.reason ?? undefined,
      };
    },

    async redeemReward(req) {
      const reward = await redeemReward(
        store,
        requiredField(req.appId, 'appId'),
        requiredField(req.rewardId, 'rewardId'),
        requiredField(req.userId, 'userId'),
        req.operationKey,
      );
      return { reward: rewardToProto(reward) };
    },

    async getRewardStats(req) {
      if (!req.campaignId && !req.userId) throw invalidArgument('campaignId or userId is required');
      const view = await store.totals.view(requiredField(req.appId, 'appId'), { campaignId: req.campaignId, userId: req.userId });
      return {
        total: amountsProto(view.total),
        referrerLevels: view.levels.map((l) => ({ level: l.level, amounts: amountsProto(l.amounts) })),
        referee: amountsProto(view.referee),
      };
    },
  };
}
