/** Why an event earned nothing (docs/product-decisions.md §7.2). */
export type Refusal = 'COOLDOWN' | 'MAX_REPEATS' | 'ACTION_DISABLED';

export interface RewardRule {
  enabled: boolean;
  /** Seconds after the last rewarded event during which nothing is earned; 0 = none. */
  cooldownSeconds: number;
  /** Rewarded events per user; null = unlimited. */
  maxRepeats: number | null;
}

/** A user's history with one action, kept in their balance document. */
export interface ActionProgress {
  /** Rewarded events so far. */
  count: number;
  /** When the last rewarded event happened. */
  lastAt: Date;
}

/**
 * Whether an event at `at` earns the action's reward, given the user's
 * progress. Callers evaluate this against the balance version they then
 * write with a compare-and-set, so the rules hold under concurrency.
 * A disabled action wins over everything; a spent maxRepeats over a cooldown
 * (it is permanent, the cooldown is not).
 */
export function decideReward(rule: RewardRule, progress: ActionProgress | undefined, at: Date): Refusal | null {
  if (!rule.enabled) return 'ACTION_DISABLED';
  const count = progress?.count ?? 0;
  if (rule.maxRepeats !== null && count >= rule.maxRepeats) return 'MAX_REPEATS';
  if (progress && rule.cooldownSeconds > 0 && at.getTime() - progress.lastAt.getTime() < rule.cooldownSeconds * 1000) {
    return 'COOLDOWN';
  }
  return null;
}
