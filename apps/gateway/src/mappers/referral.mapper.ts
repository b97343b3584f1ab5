import { CampaignStatus, ReferralStatus, enumName, type FraudAssessment, type Referral } from '@ris/contracts';
import { isoTime } from './proto-json';

/** warning, reasons, riskScore: all null unless flagged (docs/product-decisions.md §5.2). */
export function fraudFields(fraud: FraudAssessment | undefined) {
  if (!fraud?.flagged) return { warning: null, reasons: null, riskScore: null };
  return { warning: fraud.warning ?? null, reasons: fraud.reasons, riskScore: fraud.riskScore ?? null };
}

export function referralJson(r: Referral) {
  return {
    id: r.id,
    referralCode: r.referralCode,
    referrerId: r.referrerId,
    refereeId: r.refereeId ?? null,
    status: enumName(ReferralStatus, r.status) ?? null,
    level: r.level,
    rewardAmount: r.rewardAmount,
    isFlagged: r.isFlagged,
    createdAt: isoTime(r.createdAt),
    Campaign: r.campaign
      ? { id: r.campaign.id, name: r.campaign.name, status: enumName(CampaignStatus, r.campaign.status) ?? null }
      : null,
  };
}
