import { timestampDate } from '@bufbuild/protobuf/wkt';
import { FraudFlagStatus, FraudFlagSubject, SharedAttribute, SignalKind, enumName, type FraudEvidence, type FraudFlag } from '@ris/contracts';
import { isoTime } from './proto-json';

/** A shared attribute as the name of the signal field it is. */
const SIGNAL_FIELD: Record<SharedAttribute, 'ip' | 'deviceId' | 'email' | null> = {
  [SharedAttribute.UNSPECIFIED]: null,
  [SharedAttribute.IP]: 'ip',
  [SharedAttribute.DEVICE_ID]: 'deviceId',
  [SharedAttribute.EMAIL]: 'email',
};

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

/** GET /fraud/flags/{flagId}'s evidence: the subject's signals, the click before a conversion, the linked records. */
export function fraudEvidenceJson(e: FraudEvidence) {
  const at = e.occurredAt ? timestampDate(e.occurredAt) : null;
  return {
    signals:
      e.found && at
        ? {
            ip: e.context?.ip ?? null,
            userAgent: e.context?.userAgent ?? null,
            deviceId: e.context?.deviceId ?? null,
            email: e.context?.email ?? null,
            at: at.toISOString(),
          }
        : null,
    click:
      e.clickId && e.clickedAt && at
        ? { clickId: e.clickId, clickedAt: isoTime(e.clickedAt), secondsToConversion: (at.getTime() - timestampDate(e.clickedAt).getTime()) / 1000 }
        : null,
    linked: e.linked.map((l) => ({
      kind: enumName(SignalKind, l.kind) ?? null,
      id: l.id ?? null,
      campaignId: l.campaignId,
      referralCode: l.referralCode,
      referrerId: l.referrerId,
      refereeId: l.refereeId ?? null,
      shared: l.shared.map((attribute) => SIGNAL_FIELD[attribute]).filter((field) => field !== null),
      at: isoTime(l.at),
    })),
    windowMinutes: e.windowMinutes,
  };
}
