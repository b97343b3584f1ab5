import { DEFAULT_CURRENCY } from '@ris/contracts';
import { domainEvent, stableEventId, type DomainEvent } from '@ris/events';
import type { RewardDoc } from './reward.model';

// docs/events.md lists these types and their data. Ids are derived from the
// reward and the step, so writing the same step's events again is harmless.

const iso = (date: Date | null) => (date ? date.toISOString() : null);
/** A reward's amount with its currency (rewards stored before currencies were of USD campaigns). */
const worth = (reward: RewardDoc) => ({ amount: reward.amount, currency: reward.currency ?? DEFAULT_CURRENCY });

/**
 * A step of a reward's life as an event: its id from the type and reward
 * (and `step` for what may happen to it more than once: each reversal), at
 * the step's time (its last update when unknown).
 */
function rewardEvent(type: string, reward: RewardDoc, at: Date | null, data: Record<string, unknown>, step = ''): DomainEvent {
  const subject = step ? `${reward._id}:${step}` : reward._id;
  return domainEvent(type, reward.appId, data, { id: stableEventId(type, reward.appId, subject), occurredAt: at ?? reward.updatedAt });
}

export const rewardCreated = (reward: RewardDoc): DomainEvent =>
  rewardEvent('reward.created', reward, reward.createdAt, {
    rewardId: reward._id,
    referralId: reward.referralId,
    conversionId: reward.conversionId,
    campaignId: reward.campaignId,
    userId: reward.userId,
    side: reward.side,
    level: reward.level,
    ...worth(reward),
    fulfillmentType: reward.fulfillmentType,
    status: reward.status,
    createdAt: reward.createdAt.toISOString(),
  });

/** Once per reward, whether it was created APPROVED or approved after a review. */
export const rewardApproved = (reward: RewardDoc): DomainEvent =>
  rewardEvent('reward.approved', reward, reward.approvedAt, {
    rewardId: reward._id,
    referralId: reward.referralId,
    userId: reward.userId,
    ...worth(reward),
    status: 'APPROVED',
  });

export const rewardClaimed = (reward: RewardDoc): DomainEvent =>
  rewardEvent('reward.claimed', reward, reward.claimedAt, {
    rewardId: reward._id,
    userId: reward.userId,
    discountCode: reward.discountCode,
    expiresAt: iso(reward.expiresAt),
  });

export const rewardRedeemed = (reward: RewardDoc): DomainEvent =>
  rewardEvent('reward.redeemed', reward, reward.redeemedAt, {
    rewardId: reward._id,
    userId: reward.userId,
    ...worth(reward),
    redeemedAt: iso(reward.redeemedAt),
    // A CASH reward is paid by its payout.
    ...(reward.payoutId ? { payoutId: reward.payoutId } : {}),
  });

export const rewardCancelled = (reward: RewardDoc): DomainEvent =>
  rewardEvent('reward.cancelled', reward, reward.cancelledAt, { rewardId: reward._id, userId: reward.userId, ...worth(reward) });

/** What a reversal of its sale did to a reward that it did not cancel (a cancellation is reward.cancelled). */
export interface RewardReversalFacts {
  reversalId: string;
  effect: 'REDUCED' | 'CLAWBACK';
  reason: string;
  from: number;
  to: number;
  clawback: number;
  at: Date;
}

/** A reward reduced (not paid out yet) or clawed back (paid: owed back) by a reversal: one event per reversal and reward. */
export const rewardReversed = (reward: RewardDoc, facts: RewardReversalFacts): DomainEvent =>
  rewardEvent(
    facts.effect === 'REDUCED' ? 'reward.reduced' : 'reward.clawback',
    reward,
    facts.at,
    {
      rewardId: reward._id,
      userId: reward.userId,
      conversionId: reward.conversionId,
      purchaseId: reward.purchaseId ?? null,
      reversalId: facts.reversalId,
      reason: facts.reason,
      status: reward.status,
      fromAmount: facts.from,
      toAmount: facts.to,
      clawbackAmount: facts.clawback,
      currency: reward.currency ?? DEFAULT_CURRENCY,
    },
    facts.reversalId,
  );
