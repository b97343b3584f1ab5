import { domainEvent, stableEventId } from '@ris/events';
import type { IncentiveEventDoc } from './incentive-event.model';
import type { LevelDef } from '../progression/level-progress';
import type { Movement } from '../ledger/balance-fold';
import type { MilestoneDoc } from '../progression/milestone.model';
import type { UserBadgeDoc } from '../progression/user-badge.model';

// The incentive service's events (docs/events.md). Ids derive from what
// they are about, so a retried or recovered flow writes the same outbox
// entries again and each event is published once.

export function eventProcessed(event: IncentiveEventDoc) {
  return domainEvent(
    'incentive.event.processed',
    event.appId,
    {
      eventId: event._id,
      userId: event.userId,
      actionKey: event.actionKey,
      rewarded: event.result.rewarded,
      reason: event.result.reason,
      balance: event.result.balance,
    },
    { id: stableEventId('incentive.event.processed', event.appId, event._id), occurredAt: event.createdAt },
  );
}

export function levelUp(appId: string, userId: string, from: number, to: number, granted: LevelDef[], at: Date) {
  return domainEvent(
    'incentive.level_up',
    appId,
    {
      userId,
      from,
      to,
      rewards: granted.map((l) => ({ level: l.level, coins: l.rewards.coins, badgeKey: l.rewards.badgeKey, perks: l.rewards.perks })),
    },
    { id: stableEventId('incentive.level_up', appId, userId, String(to)), occurredAt: at },
  );
}

export function badgeAwarded(award: UserBadgeDoc) {
  return domainEvent(
    'incentive.badge_awarded',
    award.appId,
    { userId: award.userId, badgeKey: award.badgeKey, source: award.source, awardedAt: award.awardedAt.toISOString() },
    { id: stableEventId('incentive.badge_awarded', award.appId, award.userId, award.badgeKey), occurredAt: award.awardedAt },
  );
}

export function milestoneReached(appId: string, userId: string, milestone: Pick<MilestoneDoc, 'key' | 'metric' | 'threshold'>, at: Date) {
  return domainEvent(
    'incentive.milestone_reached',
    appId,
    { userId, milestoneKey: milestone.key, metric: milestone.metric, threshold: milestone.threshold, reachedAt: at.toISOString() },
    { id: stableEventId('incentive.milestone_reached', appId, userId, milestone.key), occurredAt: at },
  );
}

/** Coins or tokens that lapsed (an EXPIRY entry carries it). */
export function coinsExpired(appId: string, userId: string, expiry: Pick<Movement, 'key' | 'coins' | 'tokens' | 'createdAt'>) {
  return domainEvent(
    'incentive.coins_expired',
    appId,
    { userId, coins: -expiry.coins, tokens: -expiry.tokens, expiredAt: expiry.createdAt.toISOString() },
    { id: stableEventId('incentive.coins_expired', appId, expiry.key), occurredAt: expiry.createdAt },
  );
}

/** An incentive event taken back (its REVERSAL entry carries it). */
export function eventReversed(appId: string, userId: string, eventId: string, reversal: Pick<Movement, 'coins' | 'tokens' | 'xp' | 'pendingCoins' | 'pendingTokens' | 'debt' | 'description' | 'createdAt'>) {
  return domainEvent(
    'incentive.event_reversed',
    appId,
    {
      userId,
      eventId,
      coins: -reversal.coins,
      tokens: -reversal.tokens,
      xp: -reversal.xp,
      pendingCoins: -(reversal.pendingCoins ?? 0),
      pendingTokens: -(reversal.pendingTokens ?? 0),
      debt: reversal.debt ?? { coins: 0, tokens: 0 },
      reason: reversal.description,
      reversedAt: reversal.createdAt.toISOString(),
    },
    { id: stableEventId('incentive.event_reversed', appId, eventId), occurredAt: reversal.createdAt },
  );
}
