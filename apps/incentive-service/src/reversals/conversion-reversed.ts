import type { DomainEvent } from '@ris/events';
import type { Logger } from '@ris/logging';
import type { ConversionReversal, ReferralCreditReversals } from './referral-credit-reversals';

/** The referral service's event of a reversed conversion (a refund, a chargeback…), in full or in part. */
export const CONVERSION_REVERSED = 'conversion.reversed';

interface ConversionReversedData {
  reversalId?: unknown;
  conversionId?: unknown;
  recordId?: unknown;
  purchaseId?: unknown;
  referrerId?: unknown;
  level?: unknown;
  reason?: unknown;
  full?: unknown;
}

/** What the engine does with a conversion.reversed: take its credits back, or nothing (and why). */
export type ReversalDecision = { reverse: ConversionReversal } | { ignore: 'PARTIAL' | 'PURCHASE' | 'HIGHER_LEVEL' | 'MALFORMED' };

const text = (value: unknown) => (typeof value === 'string' && value ? value : null);

/**
 * Only a full reversal of the conversion itself takes a credit back
 * (product decisions §7.16): conversion.created credited the referrer once
 * for the conversion, whatever its amount, so a partial refund leaves the
 * referral standing, and a later purchase never credited anything. Higher
 * levels of the chain were never credited either (referral-actions.ts).
 */
export function reversalDecision(event: DomainEvent): ReversalDecision {
  const data = event.data as ConversionReversedData;
  if (typeof data.purchaseId === 'string') return { ignore: 'PURCHASE' };
  if (data.full !== true) return { ignore: 'PARTIAL' };
  if (data.level !== 1) return { ignore: 'HIGHER_LEVEL' };
  const conversionId = text(data.conversionId);
  const referrerId = text(data.referrerId);
  const reversalId = text(data.reversalId);
  // Taking credits back on a guess is worse than not: purchaseId must say null, and at level 1 the record is the conversion.
  if (data.purchaseId !== null || !conversionId || !referrerId || !reversalId || data.recordId !== conversionId) return { ignore: 'MALFORMED' };
  const occurredAt = new Date(event.occurredAt);
  return {
    reverse: {
      conversionId,
      referrerId,
      reversalId,
      reason: text(data.reason) ?? 'OTHER',
      reversedAt: Number.isNaN(occurredAt.getTime()) ? new Date() : occurredAt,
    },
  };
}

/**
 * The consumer of conversion.reversed: a full reversal of a conversion takes
 * back the credits its conversion.created gave the referrer. Idempotent by
 * the reversal entries' keys, so a redelivered event changes nothing; a
 * failure is raised, and the event comes again.
 */
export function conversionReversedHandler(reversals: Pick<ReferralCreditReversals, 'reverse'>, logger: Logger) {
  return async (event: DomainEvent): Promise<void> => {
    if (event.type !== CONVERSION_REVERSED) return;
    const decision = reversalDecision(event);
    if ('ignore' in decision) {
      if (decision.ignore === 'MALFORMED') logger.warn({ eventId: event.id }, 'conversion.reversed of level 1 without its ids or purchaseId; nothing taken back');
      return;
    }
    await reversals.reverse(event.appId, decision.reverse);
  };
}
