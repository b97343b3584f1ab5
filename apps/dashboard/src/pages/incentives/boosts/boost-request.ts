import type { Body, Boost, BoostState } from '../../../api/types';
import { formatDateTime } from '../../../ui/format';

export const BOOST_STATES: { value: BoostState; label: string }[] = [
  { value: 'SCHEDULED', label: 'Scheduled' },
  { value: 'ACTIVE', label: 'Active' },
  { value: 'ENDED', label: 'Ended' },
];

/** The API's bounds (apps/gateway/src/routes/incentive-boosts.ts). */
export const MAX_MULTIPLIER = 10;
export const MAX_BOOST_DAYS = 366;
const DAY_MS = 86_400_000;

/** `×2`, `×1.5`: a multiplier as the dashboard writes it. */
export function multiplierText(multiplier: number): string {
  return `×${Number(multiplier.toFixed(2))}`;
}

/** A boost as a ledger entry names it: `×2 Double weekend`. */
export function boostText(boost: { name: string; multiplier: number }): string {
  return `${multiplierText(boost.multiplier)} ${boost.name}`;
}

/** A boost's window (`2026-12-05 00:00:00 → 2026-12-07 00:00:00`), in the operator's time. */
export function windowText(boost: Pick<Boost, 'startsAt' | 'endsAt'>): string {
  return `${formatDateTime(boost.startsAt)} → ${formatDateTime(boost.endsAt)}`;
}

/** What a boost applies to: its actions and its users (`every action · every user`). */
export function scopeText(boost: Pick<Boost, 'actionKeys' | 'userIds'>): string {
  const actions = boost.actionKeys.length === 0 ? 'every action' : `${boost.actionKeys.length === 1 ? 'action' : 'actions'} ${boost.actionKeys.join(', ')}`;
  const users =
    boost.userIds.length === 0
      ? 'every user'
      : boost.userIds.length <= 3
        ? `${boost.userIds.length === 1 ? 'user' : 'users'} ${boost.userIds.join(', ')}`
        : `${boost.userIds.length} users (${boost.userIds.slice(0, 3).join(', ')}, …)`;
  return `${actions} · ${users}`;
}

export interface BoostFormValues {
  name: string;
  multiplier: number | string;
  actionKeys: string[];
  userIds: string[];
  /** As the date-time inputs give it: `YYYY-MM-DD HH:mm:ss` in the operator's time; '' or null when not set. */
  startsAt: string | null;
  endsAt: string | null;
}

export const NEW_BOOST: BoostFormValues = { name: '', multiplier: 2, actionKeys: [], userIds: [], startsAt: null, endsAt: null };

/** A date-time input's value (the operator's time, `YYYY-MM-DD HH:mm[:ss]`) as the instant the API takes; null when empty or not a time. */
export function instantOfPicked(value: string | null): string | null {
  if (!value) return null;
  const at = new Date(value.trim().replace(' ', 'T'));
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

/** POST /incentives/boosts: empty lists are left out (every action, every user); user ids trimmed, each once. */
export function createBoostRequest(values: BoostFormValues): Body<'/api/v1/incentives/boosts', 'post'> {
  const userIds = [...new Set(values.userIds.map((u) => u.trim()).filter(Boolean))];
  return {
    name: values.name.trim(),
    multiplier: Number(values.multiplier),
    ...(values.actionKeys.length > 0 ? { actionKeys: values.actionKeys } : {}),
    ...(userIds.length > 0 ? { userIds } : {}),
    startsAt: instantOfPicked(values.startsAt) ?? '',
    endsAt: instantOfPicked(values.endsAt) ?? '',
  };
}

/** The form rule of a multiplier: more than 1, at most 10, at most 2 decimal places. */
export function multiplierRule(value: number | string): string | null {
  const n = typeof value === 'number' ? value : Number(value);
  if (value === '' || !Number.isFinite(n) || n <= 1 || n > MAX_MULTIPLIER) return `More than 1 and at most ${MAX_MULTIPLIER}`;
  return Math.abs(n * 100 - Math.round(n * 100)) < 1e-6 ? null : 'At most 2 decimal places';
}

export function startsAtRule(value: string | null): string | null {
  return instantOfPicked(value) ? null : 'When the boost starts';
}

/** The end: after the start, in the future, at most 366 days after the start (as the API checks it). */
export function endsAtRule(value: string | null, values: Pick<BoostFormValues, 'startsAt'>, now: Date = new Date()): string | null {
  const end = instantOfPicked(value);
  if (!end) return 'When the boost ends';
  const endMs = Date.parse(end);
  if (endMs <= now.getTime()) return 'An end in the future';
  const start = instantOfPicked(values.startsAt);
  if (!start) return null;
  if (endMs <= Date.parse(start)) return 'After the start';
  return endMs - Date.parse(start) > MAX_BOOST_DAYS * DAY_MS ? `At most ${MAX_BOOST_DAYS} days after the start` : null;
}
