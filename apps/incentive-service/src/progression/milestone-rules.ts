import type { BalanceState } from '../ledger/balance-fold';

export const MILESTONE_METRICS = ['XP', 'COINS_EARNED', 'EVENTS', 'REFERRALS', 'STREAK'] as const;
export type MilestoneMetricName = (typeof MILESTONE_METRICS)[number];

export interface MilestoneRule {
  key: string;
  metric: MilestoneMetricName;
  threshold: number;
  /** STREAK only: the streak whose longest length is the metric. */
  streakKey?: string | null;
}

/**
 * What milestones read besides the balance: the longest length of each
 * streak (kept in the user's engagement document, streaks/). Absent, a
 * STREAK milestone reads 0: it is only ever due after a streak moved, and
 * the streak step passes them.
 */
export interface MilestoneFacts {
  streakLongest?: Record<string, number>;
}

/** Every metric but STREAK is a field of the balance, itself a fold of the ledger. */
export function metricValue(
  state: Pick<BalanceState, 'xp' | 'coinsEarned' | 'rewardedEvents' | 'referrals'>,
  metric: MilestoneMetricName,
  streakKey: string | null = null,
  facts: MilestoneFacts = {},
): number {
  switch (metric) {
    case 'STREAK':
      return streakKey ? (facts.streakLongest?.[streakKey] ?? 0) : 0;
    case 'XP':
      return state.xp;
    case 'COINS_EARNED':
      return state.coinsEarned;
    case 'EVENTS':
      return state.rewardedEvents;
    case 'REFERRALS':
      return state.referrals;
  }
}

/** Milestones the balance has reached and not yet recorded, lowest threshold first. */
export function milestonesDue<M extends MilestoneRule>(rules: M[], state: BalanceState, facts: MilestoneFacts = {}): M[] {
  const done = new Set(state.milestones);
  return rules
    .filter((m) => !done.has(m.key) && metricValue(state, m.metric, m.streakKey ?? null, facts) >= m.threshold)
    .sort((a, b) => a.threshold - b.threshold || a.key.localeCompare(b.key));
}
