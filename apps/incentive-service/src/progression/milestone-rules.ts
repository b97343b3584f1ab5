import type { BalanceState } from '../ledger/balance-fold';

export const MILESTONE_METRICS = ['XP', 'COINS_EARNED', 'EVENTS', 'REFERRALS'] as const;
export type MilestoneMetricName = (typeof MILESTONE_METRICS)[number];

export interface MilestoneRule {
  key: string;
  metric: MilestoneMetricName;
  threshold: number;
}

/** Every metric is a field of the balance, itself a fold of the ledger. */
export function metricValue(state: Pick<BalanceState, 'xp' | 'coinsEarned' | 'rewardedEvents' | 'referrals'>, metric: MilestoneMetricName): number {
  switch (metric) {
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
export function milestonesDue<M extends MilestoneRule>(rules: M[], state: BalanceState): M[] {
  const done = new Set(state.milestones);
  return rules
    .filter((m) => !done.has(m.key) && metricValue(state, m.metric) >= m.threshold)
    .sort((a, b) => a.threshold - b.threshold || a.key.localeCompare(b.key));
}
