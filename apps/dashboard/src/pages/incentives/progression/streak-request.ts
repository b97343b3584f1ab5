import type { Body, StreakDefinition, StreakPeriod, StreakReward } from '../../../api/types';
import { whole } from '../cost-fields';
import { rewardsText } from './progression-request';

export const STREAK_PERIODS: { value: StreakPeriod; label: string; description: string }[] = [
  { value: 'DAILY', label: 'Daily', description: "a calendar day in the user's time zone" },
  { value: 'WEEKLY', label: 'Weekly', description: 'an ISO week, Monday to Sunday' },
];

export function periodLabel(period: StreakPeriod): string {
  return STREAK_PERIODS.find((p) => p.value === period)?.label ?? period;
}

/** `7 days`, `1 week`: a streak's length in its periods. */
export function lengthText(length: number, period: StreakPeriod): string {
  const unit = period === 'WEEKLY' ? 'week' : 'day';
  return `${length} ${length === 1 ? unit : `${unit}s`}`;
}

/** A streak's rewards by length, in words (`3 days: 50 coins · badge three_days; 7 days: 200 coins`; `none`). */
export function streakRewardsText(streak: { period: StreakPeriod; rewards: readonly StreakReward[] }): string {
  if (streak.rewards.length === 0) return 'none';
  return [...streak.rewards]
    .sort((a, b) => a.length - b.length)
    .map((r) => `${lengthText(r.length, streak.period)}: ${rewardsText(r)}`)
    .join('; ');
}

/** The actions whose events extend a streak (or a boost applies to), in words. */
export function actionsText(actionKeys: readonly string[]): string {
  return actionKeys.length === 0 ? 'any action' : actionKeys.join(', ');
}

export interface StreakRewardValues {
  length: number | string;
  coins: number | string;
  xp: number | string;
  tokens: number | string;
  badgeKey: string | null;
}

export interface StreakFormValues {
  key: string;
  name: string;
  /** Set at creation; read-only afterwards (users' progress is counted in it). */
  period: StreakPeriod;
  actionKeys: string[];
  freezesPerMonth: number | string;
  rewards: StreakRewardValues[];
}

export const NEW_STREAK_REWARD: StreakRewardValues = { length: '', coins: 0, xp: 0, tokens: 0, badgeKey: null };

export const NEW_STREAK: StreakFormValues = { key: '', name: '', period: 'DAILY', actionKeys: [], freezesPerMonth: 0, rewards: [] };

export function streakFormValues(streak: StreakDefinition): StreakFormValues {
  return {
    key: streak.key,
    name: streak.name,
    period: streak.period,
    actionKeys: [...streak.actionKeys],
    freezesPerMonth: streak.freezesPerMonth,
    rewards: streak.rewards.map((r) => ({ length: r.length, coins: r.coins, xp: r.xp, tokens: r.tokens, badgeKey: r.badgeKey })),
  };
}

/** The fields a streak's form edits, as both POST and PATCH take them (rewards and actions replace the old ones on PATCH). */
function streakFields(values: StreakFormValues) {
  return {
    name: values.name.trim(),
    actionKeys: values.actionKeys,
    freezesPerMonth: whole(values.freezesPerMonth),
    rewards: values.rewards.map((r) => ({ length: whole(r.length), coins: whole(r.coins), xp: whole(r.xp), tokens: whole(r.tokens), badgeKey: r.badgeKey })),
  };
}

export function createStreakRequest(values: StreakFormValues): Body<'/api/v1/incentives/streaks/definitions', 'post'> {
  return { key: values.key.trim(), period: values.period, ...streakFields(values) };
}

/** PATCH: never the period (fixed at creation). */
export function updateStreakRequest(values: StreakFormValues): Body<'/api/v1/incentives/streaks/definitions/{key}', 'patch'> {
  return streakFields(values);
}

/** The form rule of freezes per month: a whole number from 0 to 10. */
export function freezesRule(value: number | string): string | null {
  const n = Number(value);
  return value !== '' && Number.isInteger(n) && n >= 0 && n <= 10 ? null : 'A whole number from 0 to 10';
}

/** The form rule of a reward's length: a whole number from 1 to 3650, one reward per length. */
export function rewardLengthRule(value: number | string, values: StreakFormValues): string | null {
  const n = Number(value);
  if (value === '' || !Number.isInteger(n) || n < 1 || n > 3650) return 'A whole number from 1 to 3650';
  return values.rewards.filter((r) => Number(r.length) === n).length > 1 ? 'One reward per length' : null;
}
