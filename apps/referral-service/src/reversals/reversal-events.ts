import { domainEvent, stableEventId, type DomainEvent } from '@ris/events';
import type { ConversionDoc } from '../conversions/conversion.model';
import type { ReversalDoc } from './reversal.model';

/**
 * conversion.reversed, one per record of the conversion (every level: each
 * referrer's reward may have changed), with the reversal's facts. The
 * incentive engine takes back a referral credit on the level-1 event of a
 * full reversal of the conversion itself (purchaseId null). Ids derive from
 * the reversal and the record: stored twice, published once.
 */
export function conversionReversed(reversal: ReversalDoc, record: ConversionDoc, reversedAmount: number): DomainEvent {
  const at = reversal.appliedAt ?? reversal.createdAt;
  return domainEvent(
    'conversion.reversed',
    reversal.appId,
    {
      reversalId: reversal._id,
      conversionId: reversal.conversionId,
      recordId: record._id,
      purchaseId: reversal.purchaseId,
      campaignId: reversal.campaignId,
      referralId: record.referralId,
      referrerId: record.referrerId,
      refereeId: record.refereeId,
      level: record.level,
      reason: reversal.reason,
      amount: reversal.amount,
      reversedAmount,
      currency: reversal.currency,
      full: reversal.full,
      status: record.status,
      note: reversal.note,
      rewardAmountReversed: reversal.rewardAmountReversed,
      clawbackAmount: reversal.clawbackAmount,
      occurredAt: at.toISOString(),
    },
    { id: stableEventId('conversion.reversed', reversal.appId, `${reversal._id}:${record._id}`), occurredAt: at },
  );
}
