import { domainEvent, stableEventId } from '@ris/events';
import type { StreakChange } from './streak-progress';
import { periodStartAt, type StreakPeriodName } from './streak-periods';

/**
 * incentive.streak_extended, incentive.streak_frozen and incentive.streak_ended
 * (docs/events.md; webhooks STREAK_EXTENDED, STREAK_FROZEN, STREAK_ENDED).
 * Ids derive from the streak and the period they are about: a retried
 * write stores the same ones, published once.
 */
export function streakEvent(
  appId: string,
  userId: string,
  change: StreakChange,
  context: { period: StreakPeriodName; timeZone: string; currentPeriod: number; eventId: string | null; at: Date },
) {
  const base = { userId, streakKey: change.key };
  switch (change.kind) {
    case 'extended':
      return domainEvent(
        'incentive.streak_extended',
        appId,
        { ...base, length: change.extension.length, freezesUsed: change.extension.freezesUsed, restarted: change.extension.restarted, eventId: context.eventId },
        { id: stableEventId('incentive.streak_extended', appId, userId, change.key, String(context.currentPeriod)), occurredAt: context.at },
      );
    case 'frozen':
      return domainEvent(
        'incentive.streak_frozen',
        appId,
        {
          ...base,
          length: change.length,
          missedPeriodStart: periodStartAt(context.period, change.period, context.timeZone).toISOString(),
          freezesLeft: change.freezesLeft,
        },
        { id: stableEventId('incentive.streak_frozen', appId, userId, change.key, String(change.period)), occurredAt: context.at },
      );
    case 'ended':
      return domainEvent(
        'incentive.streak_ended',
        appId,
        { ...base, length: change.length, lastPeriodStart: periodStartAt(context.period, change.lastPeriod, context.timeZone).toISOString() },
        { id: stableEventId('incentive.streak_ended', appId, userId, change.key, String(change.lastPeriod)), occurredAt: context.at },
      );
  }
}
