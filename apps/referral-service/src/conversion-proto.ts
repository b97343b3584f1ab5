import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  CampaignStatus,
  ConversionRewardSchema,
  ConversionSchema,
  ConversionStatus,
  FraudFlagSchema,
  FraudFlagStatus,
  FraudFlagSubject,
  RewardSide,
  RewardStatus,
  enumValue,
  type Conversion,
  type ConversionReward as ConversionRewardProto,
  type FraudFlag,
} from '@ris/contracts';
import type { CampaignDoc } from './campaigns/campaign.model';
import type { ConversionReward } from './conversions/conversion-rewards';
import type { ConversionDoc } from './conversions/conversion.model';
import type { FraudFlagDoc } from './flags/fraud-flag.model';

const ts = (date: Date | null | undefined) => (date ? timestampFromDate(date) : undefined);

export function conversionToProto(doc: ConversionDoc, campaign: Pick<CampaignDoc, '_id' | 'name' | 'status'> | undefined): Conversion {
  return create(ConversionSchema, {
    id: doc._id,
    referralCode: doc.referralCode,
    originalReferralCode: doc.originalReferralCode,
    referrerId: doc.referrerId,
    refereeId: doc.refereeId,
    status: enumValue(ConversionStatus, doc.status),
    rewardAmount: doc.rewardAmount,
    level: doc.level,
    convertedAt: ts(doc.convertedAt),
    campaign: campaign ? { id: campaign._id, name: campaign.name, status: enumValue(CampaignStatus, campaign.status) } : undefined,
    referralId: doc.referralId,
    conversionId: doc.conversionId,
    amount: doc.amount ?? undefined,
    createdAt: ts(doc.createdAt),
    fraud: {
      riskScore: doc.fraud.riskScore ?? undefined,
      reasons: doc.fraud.reasons,
      warning: doc.fraud.warning ?? undefined,
      flagged: doc.isFlagged,
    },
    fraudCheckDeferred: doc.fraudCheck === 'DEFERRED',
  });
}

export function conversionRewardToProto(reward: ConversionReward): ConversionRewardProto {
  return create(ConversionRewardSchema, {
    rewardId: reward.rewardId,
    userId: reward.userId,
    side: enumValue(RewardSide, reward.side),
    level: reward.level,
    amount: reward.amount,
    status: enumValue(RewardStatus, reward.status),
  });
}

export function flagToProto(doc: FraudFlagDoc): FraudFlag {
  return create(FraudFlagSchema, {
    id: doc._id,
    subject: enumValue(FraudFlagSubject, doc.subject),
    status: enumValue(FraudFlagStatus, doc.status),
    campaignId: doc.campaignId,
    referralId: doc.referralId,
    referralCode: doc.referralCode,
    conversionId: doc.conversionId ?? undefined,
    referrerId: doc.referrerId,
    refereeId: doc.refereeId ?? undefined,
    riskScore: doc.riskScore,
    reasons: doc.reasons,
    warning: doc.warning,
    createdAt: ts(doc.createdAt),
    resolvedAt: ts(doc.resolvedAt),
    note: doc.note ?? undefined,
    resolvedBy: doc.resolvedBy ? { operatorId: doc.resolvedBy.operatorId, email: doc.resolvedBy.email } : undefined,
  });
}
