import { DEFAULT_CURRENCY } from '@ris/contracts';
import { domainEvent, stableEventId, type DomainEvent } from '@ris/events';
import type { RewardDoc } from './reward.model';

// docs/events.md lists these types and their data. Ids are derived from the
// reward and the step, so writing the same step's events again is harmless.

const iso = (date: Date | null) => (date ? date.toISOString() : null);
/** A reward's amount with its currency (rewards stored before currencies were of USD campaigns). */
const worth = (reward: RewardDoc) => ({ amount: reward.amount, currency: reward.currency ?? DEFAULT_CURRENCY });

/** A step of a reward's life as an event: its id from the type and reward, at the step's time (its last update when unknown). */
function rewardEvent(type: string, reward: RewardDoc, at: Date | null, data: Record<string, unknown>): DomainEvent {
  return domainEvent(type, reward.appId, data, { id: stableEventId(type, reward.appId, reward._id), occurredAt: at ?? reward.updatedAt });
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
  rewardEvent('reward.redeemed', reward, reward.redeemedAt, { rewardId: reward._id, userId: reward.userId, ...worth(reward), redeemedAt: iso(reward.redeemedAt) });

export const rewardCancelled = (reward: RewardDoc): DomainEvent =>
  rewardEvent('reward.cancelled', reward, reward.cancelledAt, { rewardId: reward._id, userId: reward.userId, ...worth(reward) });
