import { ConversionStatus, RewardSide, RewardStatus, enumName, type Conversion, type ConversionReward } from '@ris/contracts';
import { isoTime } from './proto-json';

/** A GET /conversions item (docs/api.md#conversions), with the ids that link it to its conversion. */
export function conversionJson(c: Conversion) {
  return {
    id: c.id,
    conversionId: c.conversionId,
    referralId: c.referralId,
    referralCode: c.referralCode,
    originalReferralCode: c.originalReferralCode,
    referrerId: c.referrerId,
    refereeId: c.refereeId,
    status: enumName(ConversionStatus, c.status) ?? null,
    rewardAmount: c.rewardAmount,
    level: c.level,
    amount: c.amount ?? null,
    isFlagged: c.fraud?.flagged ?? false,
    convertedAt: isoTime(c.convertedAt),
    createdAt: isoTime(c.createdAt),
    Campaign: c.campaign ? { id: c.campaign.id, name: c.campaign.name } : null,
  };
}

export function conversionRewardJson(r: ConversionReward) {
  return {
    rewardId: r.rewardId,
    userId: r.userId,
    side: enumName(RewardSide, r.side) ?? null,
    level: r.level,
    amount: r.amount,
    status: enumName(RewardStatus, r.status) ?? null,
  };
}

/** The chain above the direct referrer, as POST /conversions reports it. */
export function uplineJson(c: Conversion) {
  return { id: c.id, level: c.level, referralCode: c.referralCode, referrerId: c.referrerId, rewardAmount: c.rewardAmount };
}
