import { FraudFlagStatus, FraudFlagSubject, enumName, type FraudFlag } from '@ris/contracts';
import { isoTime } from './proto-json';

export function fraudFlagJson(f: FraudFlag) {
  return {
    id: f.id,
    type: enumName(FraudFlagSubject, f.subject) ?? null,
    status: enumName(FraudFlagStatus, f.status) ?? null,
    campaignId: f.campaignId,
    referralId: f.referralId,
    referralCode: f.referralCode,
    conversionId: f.conversionId ?? null,
    referrerId: f.referrerId,
    refereeId: f.refereeId ?? null,
    riskScore: f.riskScore,
    reasons: f.reasons,
    warning: f.warning,
    note: f.note ?? null,
    createdAt: isoTime(f.createdAt),
    resolvedAt: isoTime(f.resolvedAt),
    resolvedBy: f.resolvedBy ? { operatorId: f.resolvedBy.operatorId, email: f.resolvedBy.email } : null,
  };
}
