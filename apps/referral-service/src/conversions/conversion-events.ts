import { DEFAULT_CURRENCY } from '@ris/contracts';
import { domainEvent, stableEventId, type DomainEvent } from '@ris/events';
import type { ConversionDoc } from './conversion.model';

function conversionData(record: ConversionDoc) {
  return {
    // The conversion (level-1 record id, as in POST /conversions and on rewards) and this record of its chain.
    conversionId: record.conversionId,
    recordId: record._id,
    referralId: record.referralId,
    referralCode: record.referralCode,
    originalReferralCode: record.originalReferralCode,
    campaignId: record.campaignId,
    referrerId: record.referrerId,
    refereeId: record.refereeId,
    level: record.level,
    status: record.status,
    amount: record.amount,
    // Of amount and rewardAmount; records stored before currencies were of USD campaigns.
    currency: record.currency ?? DEFAULT_CURRENCY,
    rewardAmount: record.rewardAmount,
    isFlagged: record.isFlagged,
    riskScore: record.fraud.riskScore,
    reasons: record.isFlagged ? record.fraud.reasons : null,
    warning: record.fraud.warning,
    convertedAt: record.convertedAt?.toISOString() ?? null,
  };
}

/** conversion.created: one per record of the chain (level 1 is the direct referrer). */
export function conversionCreated(record: ConversionDoc): DomainEvent {
  return domainEvent('conversion.created', record.appId, conversionData(record), {
    id: stableEventId('conversion.created', record.appId, record._id),
    occurredAt: record.convertedAt ?? undefined,
  });
}

/** conversion.flagged: the same data, for every record of a flagged conversion (at once, or after a deferred score). */
export function conversionFlagged(record: ConversionDoc): DomainEvent {
  return domainEvent('conversion.flagged', record.appId, conversionData(record), {
    id: stableEventId('conversion.flagged', record.appId, record._id),
  });
}
