import { FulfillmentType, RewardSide, RewardStatus, enumName, type Reward, type RewardMove } from '@ris/contracts';
import { isoTime } from './proto-json';

/** The reward record of docs/product-decisions.md §6.1. */
export function rewardJson(r: Reward) {
  return {
    id: r.id,
    userId: r.userId,
    campaignId: r.campaignId,
    referralId: r.referralId,
    conversionId: r.conversionId,
    side: enumName(RewardSide, r.side) ?? null,
    level: r.level,
    amount: r.amount,
    fulfillmentType: enumName(FulfillmentType, r.fulfillmentType) ?? null,
    status: enumName(RewardStatus, r.status) ?? null,
    discountCode: r.discountCode ?? null,
    expiresAt: isoTime(r.expiresAt),
    claimedAt: isoTime(r.claimedAt),
    redeemedAt: isoTime(r.redeemedAt),
    createdAt: isoTime(r.createdAt),
  };
}

/** One move of GET /rewards/{rewardId}/history: a creation is from NEW. */
export function rewardHistoryJson(m: RewardMove) {
  return {
    from: m.from === undefined ? 'NEW' : (enumName(RewardStatus, m.from) ?? null),
    to: enumName(RewardStatus, m.to) ?? null,
    at: isoTime(m.at),
  };
}
