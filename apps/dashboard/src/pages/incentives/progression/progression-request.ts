import type { Badge, Body, IncentiveLevel, MilestoneDefinition, MilestoneMetric } from '../../../api/types';
import { formatAmounts, formatNumber } from '../../../ui/format';
import { whole } from '../cost-fields';

export const METRICS: { value: MilestoneMetric; label: string; description: string }[] = [
  { value: 'XP', label: 'XP', description: "the user's XP" },
  { value: 'COINS_EARNED', label: 'Coins earned', description: 'coins earned from rewards (spending does not lower it)' },
  { value: 'EVENTS', label: 'Rewarded events', description: 'events that earned something' },
  { value: 'REFERRALS', label: 'Referrals', description: 'referees who converted' },
  { value: 'STREAK', label: 'Longest streak', description: 'the longest run of a streak the user had' },
];

export function metricLabel(metric: MilestoneMetric): string {
  return METRICS.find((m) => m.value === metric)?.label ?? metric;
}

/** When a milestone is reached, in words (`Rewarded events reaches 10`; `Longest streak of daily_login reaches 7`). */
export function milestoneCondition(m: Pick<MilestoneDefinition, 'metric' | 'threshold' | 'streakKey'>): string {
  const metric = m.metric === 'STREAK' && m.streakKey ? `${metricLabel(m.metric)} of ${m.streakKey}` : metricLabel(m.metric);
  return `${metric} reaches ${formatNumber(m.threshold)}`;
}

/** What reaching a level or milestone grants, in words (`200 coins · badge gold · perks: free shipping`). */
export function rewardsText(rewards: { coins: number; xp?: number; tokens?: number; badgeKey: string | null; perks?: string[] }): string {
  const amounts = formatAmounts({ coins: rewards.coins, xp: rewards.xp ?? 0, tokens: rewards.tokens ?? 0 });
  const parts = [amounts === 'nothing' ? null : amounts, rewards.badgeKey ? `badge ${rewards.badgeKey}` : null, rewards.perks?.length ? `perks: ${rewards.perks.join(', ')}` : null];
  return parts.filter(Boolean).join(' · ') || 'nothing';
}

// --- Levels -----------------------------------------------------------------

export interface LevelFormValues {
  level: number | string;
  name: string;
  xpThreshold: number | string;
  coins: number | string;
  badgeKey: string | null;
  perks: string[];
}

export const NEW_LEVEL: LevelFormValues = { level: '', name: '', xpThreshold: 0, coins: 0, badgeKey: null, perks: [] };

export function levelFormValues(level: IncentiveLevel): LevelFormValues {
  return { level: level.level, name: level.name, xpThreshold: level.xpThreshold, coins: level.rewards.coins, badgeKey: level.rewards.badgeKey, perks: level.rewards.perks };
}

function levelFields(values: LevelFormValues) {
  return { name: values.name.trim(), xpThreshold: whole(values.xpThreshold), rewards: { coins: whole(values.coins), badgeKey: values.badgeKey, perks: values.perks } };
}

export function createLevelRequest(values: LevelFormValues): Body<'/api/v1/incentives/levels', 'post'> {
  return { level: whole(values.level), ...levelFields(values) };
}

export function updateLevelRequest(values: LevelFormValues): Body<'/api/v1/incentives/levels/{level}', 'patch'> {
  return levelFields(values);
}

/** The form field an API field of a level or milestone is edited in (its rewards are flat in the form). */
export function rewardFieldOf(apiField: string): string {
  return apiField.startsWith('rewards.') ? apiField.slice('rewards.'.length) : apiField;
}

// --- Badges -----------------------------------------------------------------

export interface BadgeFormValues {
  key: string;
  name: string;
  description: string;
  imageUrl: string;
}

export const NEW_BADGE: BadgeFormValues = { key: '', name: '', description: '', imageUrl: '' };

export function badgeFormValues(badge: Badge): BadgeFormValues {
  return { key: badge.key, name: badge.name, description: badge.description ?? '', imageUrl: badge.imageUrl ?? '' };
}

/** An empty image URL is left out (the API takes none or an http(s) URL). */
function badgeFields(values: BadgeFormValues) {
  const imageUrl = values.imageUrl.trim();
  return { name: values.name.trim(), description: values.description.trim(), ...(imageUrl ? { imageUrl } : {}) };
}

export function createBadgeRequest(values: BadgeFormValues): Body<'/api/v1/incentives/badges', 'post'> {
  return { key: values.key.trim(), ...badgeFields(values) };
}

export function updateBadgeRequest(values: BadgeFormValues): Body<'/api/v1/incentives/badges/{key}', 'patch'> {
  return badgeFields(values);
}

// --- Milestones -------------------------------------------------------------

export interface MilestoneFormValues {
  key: string;
  name: string;
  description: string;
  metric: MilestoneMetric;
  threshold: number | string;
  coins: number | string;
  xp: number | string;
  tokens: number | string;
  badgeKey: string | null;
  /** With metric STREAK only: the streak whose longest length is the metric. */
  streakKey: string | null;
}

export const NEW_MILESTONE: MilestoneFormValues = { key: '', name: '', description: '', metric: 'EVENTS', threshold: 10, coins: 0, xp: 0, tokens: 0, badgeKey: null, streakKey: null };

export function milestoneFormValues(m: MilestoneDefinition): MilestoneFormValues {
  return { key: m.key, name: m.name, description: m.description ?? '', metric: m.metric, threshold: m.threshold, ...m.rewards, badgeKey: m.rewards.badgeKey, streakKey: m.streakKey };
}

/** The form rule of a milestone's streak: required with metric STREAK. */
export function streakKeyRule(value: string | null, values: Pick<MilestoneFormValues, 'metric'>): string | null {
  return values.metric !== 'STREAK' || value ? null : 'Choose the streak whose longest length counts';
}

function milestoneFields(values: MilestoneFormValues) {
  return {
    name: values.name.trim(),
    description: values.description.trim(),
    metric: values.metric,
    threshold: whole(values.threshold),
    rewards: { coins: whole(values.coins), xp: whole(values.xp), tokens: whole(values.tokens), badgeKey: values.badgeKey },
    // Sent with STREAK only (the API refuses it with another metric; a PATCH to another metric drops it).
    ...(values.metric === 'STREAK' && values.streakKey ? { streakKey: values.streakKey } : {}),
  };
}

export function createMilestoneRequest(values: MilestoneFormValues): Body<'/api/v1/incentives/milestones/definitions', 'post'> {
  return { key: values.key.trim(), ...milestoneFields(values) };
}

export function updateMilestoneRequest(values: MilestoneFormValues): Body<'/api/v1/incentives/milestones/definitions/{key}', 'patch'> {
  return milestoneFields(values);
}
