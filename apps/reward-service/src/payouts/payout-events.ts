import { domainEvent, stableEventId, type DomainEvent } from '@ris/events';
import type { PayoutDoc } from './payout.model';

// docs/events.md lists these types and their data. Ids come from the payout and the step: writing one again is harmless.

const iso = (date: Date | null) => (date ? date.toISOString() : null);

function payoutEvent(type: string, payout: PayoutDoc, at: Date): DomainEvent {
  return domainEvent(
    type,
    payout.appId,
    {
      payoutId: payout._id,
      userId: payout.userId,
      currency: payout.currency,
      amount: payout.amount,
      rewardsAmount: payout.rewardsAmount,
      clawbacksAmount: payout.clawbacksAmount,
      rewardCount: payout.rewardIds.length,
      clawbackCount: payout.clawbackIds.length,
      status: payout.status,
      externalReference: payout.externalReference,
      failureReason: payout.failureReason,
      createdAt: payout.createdAt.toISOString(),
      paidAt: iso(payout.paidAt),
      failedAt: iso(payout.failedAt),
    },
    { id: stableEventId(type, payout.appId, payout._id), occurredAt: at },
  );
}

export const payoutCreated = (payout: PayoutDoc): DomainEvent[] => [payoutEvent('payout.created', payout, payout.createdAt)];
export const payoutPaid = (payout: PayoutDoc): DomainEvent[] => [payoutEvent('payout.paid', payout, payout.paidAt ?? payout.updatedAt)];
export const payoutFailed = (payout: PayoutDoc): DomainEvent[] => [payoutEvent('payout.failed', payout, payout.failedAt ?? payout.updatedAt)];
