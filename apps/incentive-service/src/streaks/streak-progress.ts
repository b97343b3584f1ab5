import { periodMonth, periodStartAt, type StreakPeriodName } from './streak-periods';

/** What a streak definition says about progress (streak-definition.model.ts holds the rest). */
export interface StreakRule {
  key: string;
  period: StreakPeriodName;
  /** Actions whose events extend it; empty = any. */
  actionKeys: string[];
  freezesPerMonth: number;
  /** Lengths that pay a reward. */
  rewardLengths: number[];
}

/** What one event did to one streak: kept with the event, so a duplicate answers the same. */
export interface StreakExtensionDoc {
  key: string;
  length: number;
  /** Missed periods bridged by freezes just before this one. */
  freezesUsed: number;
  /** The streak had ended: this event started a new one. */
  restarted: boolean;
}

/** A user's progress on one streak, kept in their engagement document. */
export interface StreakState {
  length: number;
  longest: number;
  /** The last period covered, extended or saved by a freeze; null: never. */
  lastPeriod: number | null;
  /** The period the running streak began in (its rewards' ledger keys name it); null: none running. */
  runStart: number | null;
  /** The zone its periods are read in: the last extending event's. */
  timeZone: string;
  /** The month (YYYY-MM) freezesUsed counts, and how many were used in it. */
  freezeMonth: string | null;
  freezesUsed: number;
  lastExtendedAt: Date | null;
  /** The event that last extended it and what it answered (a recovered event answers the same). */
  lastEventId: string | null;
  lastExtension: StreakExtensionDoc | null;
  /** Lengths reached whose rewards may not be granted yet: granted (once, by ledger key) then cleared. */
  rewardsDue: number[];
}

export type StreakChange =
  | { kind: 'frozen'; key: string; period: number; length: number; freezesLeft: number }
  | { kind: 'ended'; key: string; length: number; lastPeriod: number }
  | { kind: 'extended'; key: string; extension: StreakExtensionDoc };

/**
 * However many freezes a rule gives (a weekly streak with 5 a month never
 * runs out), a streak ends after this many missed periods in a row.
 */
export const MAX_FROZEN_IN_A_ROW = 1000;

export function newStreak(timeZone: string): StreakState {
  return {
    length: 0,
    longest: 0,
    lastPeriod: null,
    runStart: null,
    timeZone,
    freezeMonth: null,
    freezesUsed: 0,
    lastExtendedAt: null,
    lastEventId: null,
    lastExtension: null,
    rewardsDue: [],
  };
}

const freezesUsedIn = (state: StreakState, month: string) => (state.freezeMonth === month ? state.freezesUsed : 0);

/** Whether an event of this action counts for the streak. */
export const qualifies = (rule: StreakRule, actionKey: string) => rule.actionKeys.length === 0 || rule.actionKeys.includes(actionKey);

/**
 * The streak once every period before `current` has passed: each missed
 * period (no qualifying event) uses a freeze of its month if one is left,
 * else the streak ends there.
 */
export function advance(state: StreakState, rule: StreakRule, current: number): { state: StreakState; changes: StreakChange[] } {
  if (state.length === 0 || state.lastPeriod === null) return { state, changes: [] };
  const changes: StreakChange[] = [];
  let next = state;
  for (let period = state.lastPeriod + 1; period < current; period += 1) {
    const month = periodMonth(rule.period, period);
    const used = freezesUsedIn(next, month);
    if (used < rule.freezesPerMonth && period - state.lastPeriod <= MAX_FROZEN_IN_A_ROW) {
      next = { ...next, lastPeriod: period, freezeMonth: month, freezesUsed: used + 1 };
      changes.push({ kind: 'frozen', key: rule.key, period, length: next.length, freezesLeft: rule.freezesPerMonth - used - 1 });
      continue;
    }
    changes.push({ kind: 'ended', key: rule.key, length: next.length, lastPeriod: next.lastPeriod as number });
    next = { ...next, length: 0, runStart: null };
    break;
  }
  return { state: next, changes };
}

/**
 * A qualifying event in period `eventPeriod`: the missed periods before it
 * first (advance), then it extends the streak if it is the first of its
 * period, or starts a new one. An event of a period already covered, or
 * older (a clock or zone change), changes nothing.
 */
export function extend(
  state: StreakState,
  rule: StreakRule,
  event: { period: number; id: string; at: Date; timeZone: string },
): { state: StreakState; changes: StreakChange[] } {
  const advanced = advance(state, rule, event.period);
  let next = advanced.state;
  if (next.lastPeriod !== null && next.length > 0 && event.period <= next.lastPeriod) return advanced;
  if (next.lastPeriod !== null && next.length === 0 && event.period <= next.lastPeriod) return advanced;
  const frozen = advanced.changes.filter((c) => c.kind === 'frozen').length;
  const continues = next.length > 0;
  const length = continues ? next.length + 1 : 1;
  const extension: StreakExtensionDoc = { key: rule.key, length, freezesUsed: frozen, restarted: !continues && next.longest > 0 };
  next = {
    ...next,
    length,
    longest: Math.max(next.longest, length),
    lastPeriod: event.period,
    runStart: continues ? next.runStart : event.period,
    timeZone: event.timeZone,
    lastExtendedAt: event.at,
    lastEventId: event.id,
    lastExtension: extension,
    rewardsDue: rule.rewardLengths.includes(length) ? [...next.rewardsDue.filter((l) => l !== length), length] : next.rewardsDue,
  };
  return { state: next, changes: [...advanced.changes, { kind: 'extended', key: rule.key, extension }] };
}

/** A user's streak as of period `current` (nothing stored changes: the pass and the next event do that). */
export interface StreakView {
  length: number;
  longest: number;
  periodStart: Date;
  extendedThisPeriod: boolean;
  freezesLeft: number;
  atRisk: boolean;
  lastExtendedAt: Date | null;
  timeZone: string;
}

export function streakView(state: StreakState, rule: StreakRule, current: number, timeZone: string): StreakView {
  const { state: now } = advance(state, rule, current);
  const running = now.length > 0 && now.lastPeriod !== null;
  return {
    length: now.length,
    longest: now.longest,
    periodStart: periodStartAt(rule.period, current, timeZone),
    extendedThisPeriod: running && now.lastPeriod === current,
    freezesLeft: Math.max(0, rule.freezesPerMonth - freezesUsedIn(now, periodMonth(rule.period, current))),
    atRisk: running && now.lastPeriod === current - 1,
    lastExtendedAt: now.lastExtendedAt,
    timeZone,
  };
}

/**
 * When the pass must look at this streak next: the end of the period after
 * its last covered one (that period then passed without an event). Null
 * when none is running.
 */
export function nextCheck(state: StreakState, rule: StreakRule): Date | null {
  if (state.length === 0 || state.lastPeriod === null) return null;
  return periodStartAt(rule.period, state.lastPeriod + 2, state.timeZone);
}
