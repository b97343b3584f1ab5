import { domainEvent, stableEventId, type DomainEvent } from '@ris/events';
import type { RewardDoc } from './reward.model';

// docs/events.md lists these types and their data. Ids are derived from the
// reward and the step, so writing the same step's events again is harmless.

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function rewardCreated(reward: RewardDoc): DomainEvent {
  return domainEvent(
    'reward.created',
    reward.appId,
    {
      rewardId: reward._id,
      referralId: reward.referralId,
      conversionId: reward.conversionId,
      campaignId: reward.campaignId,
      userId: reward.userId,
      side: reward.side,
      level: reward.level,
      amount: reward.amount,
      fulfillmentType: reward.fulfillmentType,
      status: reward.status,
      createdAt: reward.createdAt.toISOString(),
    },
    { id: stableEventId('reward.created', reward.appId, reward._id), occurredAt: reward.createdAt },
  );
}

/** Once per reward, whether it was created APPROVED or approved after a review. */
export function rewardApproved(reward: RewardDoc): DomainEvent {
  return domainEvent(
    'reward.approved',
    reward.appId,
    { rewardId: reward._id, referralId: reward.referralId, userId: reward.userId, amount: reward.amount, status: 'APPROVED' },
    { id: stableEventId('reward.approved', reward.appId, reward._id), occurredAt: reward.approvedAt ?? reward.updatedAt },
  );
}

export function rewardClaimed(reward: RewardDoc): DomainEvent {
  return domainEvent(
    'reward.claimed',
    reward.appId,
    { rewardId: reward._id, userId: reward.userId, discountCode: reward.discountCode, expiresAt: iso(reward.expiresAt) },
    { id: stableEventId('reward.claimed', reward.appId, reward._id), occurredAt: reward.claimedAt ?? reward.updatedAt },
  );
}

export function rewardRedeemed(reward: RewardDoc): DomainEvent {
  return domainEvent(
    'reward.redeemed',
    reward.appId,
    { rewardId: reward._id, userId: reward.userId, amount: reward.amount, redeemedAt: iso(reward.redeemedAt) },
    { id: stableEventId('reward.redeemed', reward.appId, reward._id), occurredAt: reward.redeemedAt ?? reward.updatedAt },
  );
}

export function rewardCancelled(reward: RewardDoc): DomainEvent {
  return domainEvent(
    'reward.cancelled',
    reward.appId,
    { rewardId: reward._id, userId: reward.userId, amount: reward.amount },
    { id: stableEventId('reward.cancelled', reward.appId, reward._id), occurredAt: reward.cancelledAt ?? reward.updatedAt },
  );
}
