import { CampaignStatus, ReferralStatus, type CampaignSummary, type FraudAssessment, type Referral as ReferralMessage } from '@ris/contracts';
import { timestamp } from '../openapi/common-schemas';
import { z } from '../openapi/zod';
import { entity, from, publicEnum, time } from './entity';

export const ReferralStatuses = publicEnum(ReferralStatus);
export const CampaignStatuses = publicEnum(CampaignStatus);

/** warning, reasons, riskScore on created referrals and conversions (docs/product-decisions.md §5.2). */
export const FraudFields = {
  warning: z.string().nullable().openapi({ description: 'One human sentence; null unless flagged' }),
  reasons: z.array(z.string()).nullable().openapi({ description: 'Stable reason codes such as SELF_REFERRAL; null unless flagged' }),
  riskScore: z.number().int().min(0).max(100).nullable().openapi({ description: '0..100; null unless flagged' }),
};

/** warning, reasons, riskScore: all null unless flagged (docs/product-decisions.md §5.2). */
export function fraudFields(fraud: FraudAssessment | undefined) {
  if (!fraud?.flagged) return { warning: null, reasons: null, riskScore: null };
  return { warning: fraud.warning ?? null, reasons: fraud.reasons, riskScore: fraud.riskScore ?? null };
}

const ReferralCampaign = entity<CampaignSummary>()(null, { id: z.string(), name: z.string(), status: from(z.string(), (c: CampaignSummary) => CampaignStatuses.name(c.status)) });

export const Referral = entity<ReferralMessage>()('Referral', {
  id: z.string(),
  referralCode: z.string(),
  referrerId: z.string(),
  refereeId: z.string().nullable(),
  status: ReferralStatuses.field(),
  level: z.number().int().openapi({ description: "Referrer's depth in the campaign's referral tree (1 = never referred)" }),
  rewardAmount: z.number(),
  conversions: z.number().int().openapi({ description: 'Referees converted through this code (level 1; rejected conversions are not counted)' }),
  isFlagged: z.boolean(),
  createdAt: time(timestamp),
  Campaign: from(ReferralCampaign.schema, (r: ReferralMessage) => (r.campaign ? ReferralCampaign.json(r.campaign) : null)),
});

export const referralJson = Referral.json;
