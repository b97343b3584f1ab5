import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  PayoutClawbackSchema,
  PayoutDueSchema,
  PayoutRewardSchema,
  PayoutSchema,
  PayoutStatus,
  enumName,
  enumValue,
  type Payout,
  type PayoutClawback,
  type PayoutDue,
  type PayoutReward,
} from '@ris/contracts';
import type { RewardDoc } from '../rewards/reward.model';
import type { RewardReversalDoc } from '../reversals/reward-reversal.model';
import type { PayoutDoc, PayoutStatusName } from './payout.model';
import type { PayoutDueFigures } from './payout-plan';

const ts = (date: Date | null) => (date ? timestampFromDate(date) : undefined);

/** A payout as the contract shows it. */
export const payoutToProto = (doc: PayoutDoc): Payout =>
  create(PayoutSchema, {
    id: doc._id,
    userId: doc.userId,
    currency: doc.currency,
    amount: doc.amount,
    rewardsAmount: doc.rewardsAmount,
    clawbacksAmount: doc.clawbacksAmount,
    rewardCount: doc.rewardIds.length,
    clawbackCount: doc.clawbackIds.length,
    status: enumValue(PayoutStatus, doc.status),
    externalReference: doc.externalReference ?? undefined,
    failureReason: doc.failureReason ?? undefined,
    createdAt: ts(doc.createdAt),
    paidAt: ts(doc.paidAt),
    failedAt: ts(doc.failedAt),
  });

export const payoutDueToProto = (due: PayoutDueFigures): PayoutDue =>
  create(PayoutDueSchema, {
    userId: due.userId,
    currency: due.currency,
    amount: due.amount,
    rewardsAmount: due.rewardsAmount,
    clawbacksAmount: due.clawbacksAmount,
    rewardCount: due.rewards.length,
    clawbackCount: due.clawbacks.length,
    payable: due.payable,
  });

export const payoutRewardToProto = (doc: RewardDoc): PayoutReward =>
  create(PayoutRewardSchema, {
    id: doc._id,
    campaignId: doc.campaignId,
    conversionId: doc.conversionId,
    purchaseId: doc.purchaseId ?? undefined,
    amount: doc.amount,
    createdAt: ts(doc.createdAt),
  });

export const payoutClawbackToProto = (doc: RewardReversalDoc): PayoutClawback =>
  create(PayoutClawbackSchema, { id: doc._id, rewardId: doc.rewardId, reversalId: doc.reversalId, amount: doc.clawback, reason: doc.reason, createdAt: ts(doc.createdAt) });

/** A listed status from the contract's (UNSPECIFIED: any). */
export const payoutStatusFilter = (status: PayoutStatus): PayoutStatusName | undefined => {
  const name = enumName(PayoutStatus, status);
  return name === 'PENDING' || name === 'PAID' || name === 'FAILED' ? name : undefined;
};
