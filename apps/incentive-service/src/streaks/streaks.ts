import { now } from '@ris/config';
import { PeriodicTask } from '@ris/service-runtime';
import { refused } from '@ris/domain-errors';
import type { DomainEvent, Outbox, OutboxCarrier } from '@ris/events';
import type { Logger } from '@ris/logging';
import { checkUserId } from '../definitions/definition-key';
import { ShortLivedCache } from '../definitions/short-lived-cache';
import { engagementUserId } from '../events/derived-ids';
import type { EngagementUserDoc } from './engagement-user.model';
import type { EngagementUserRepository } from './engagement-user.repository';
import type { StreakDefinitionDoc } from './streak-definition.model';
import { streakRule, type StreakDefinitions } from './streak-definitions';
import { streakEvent } from './streak-domain-events';
import { canonicalTimeZone, isTimeZone, periodIndex } from './streak-periods';
import { advance, extend, newStreak, nextCheck, qualifies, streakView, type StreakExtensionDoc, type StreakState, type StreakView } from './streak-progress';
import type { StreakGrantOutcome, StreakRewards } from './streak-rewards';

/** An event as the streak step sees it. */
export interface StreakEvent {
  eventId: string;
  actionKey: string;
  at: Date;
  /** The event's own zone, if it named one. */
  timeZone: string | null;
}

/** What the streak step did for one event. */
export interface StreakStepOutcome {
  extensions: StreakExtensionDoc[];
  /** Rewards it made due, granted (on the last event of the batch that extended a streak). */
  granted: StreakGrantOutcome | null;
}

export interface UserStreak extends StreakView {
  key: string;
  name: string;
  period: StreakDefinitionDoc['period'];
}

export interface UserSettings {
  userId: string;
  timeZone: string;
  updatedAt: Date | null;
}

const MAX_ATTEMPTS = 50;
/** How long, and for how many users, a document read or written is answered from memory. */
const RECENT_MS = 30_000;
const RECENT_USERS = 20_000;
/** Users a pass looks at per batch. */
const PASS_BATCH = 200;
const DEFAULT_ZONE = 'UTC';

/**
 * An IANA zone name as sent: 422 TIME_ZONE_UNKNOWN unless the runtime knows
 * it (the list is the runtime's tz database, not something the OpenAPI
 * document can state); stored in its canonical spelling.
 */
export function checkTimeZone(value: string, field = 'timeZone'): string {
  if (!isTimeZone(value)) throw refused('TIME_ZONE_UNKNOWN', `${field}: ${value.slice(0, 64)} is not an IANA time zone name (such as Europe/Paris)`, { field });
  return canonicalTimeZone(value);
}

interface Planned {
  streaks: Record<string, StreakState>;
  events: DomainEvent[];
  outcomes: Map<string, StreakExtensionDoc[]>;
  moved: boolean;
}

/**
 * Streaks: the step every event batch of an app with streak definitions
 * takes (after its ledger step, in the user's serialized section), users'
 * settings, the view, and the pass that freezes and ends streaks whose
 * period ran out.
 *
 * A user's streaks live in one engagement document, written by
 * compare-and-set on its version with the streak events it announces, so
 * a change and its events exist together. Rewards due are recorded in the
 * same write (rewardsDue) and paid after it under ledger keys that exist
 * once per run and length: a crash in between leaves them due, and the
 * user's next streak step pays them.
 */
export class Streaks {
  private readonly carrier: OutboxCarrier;
  /** Users' engagement documents as this process last read or wrote them (see onEvents). */
  private readonly recent = new ShortLivedCache<EngagementUserDoc | null>(RECENT_MS, RECENT_USERS);
  private pass?: PeriodicTask;

  constructor(
    private readonly definitions: StreakDefinitions,
    private readonly users: EngagementUserRepository,
    private readonly rewards: StreakRewards,
    outbox: Outbox,
    private readonly logger: Logger,
  ) {
    this.carrier = users.carrier(outbox);
  }

  /** The streak step of one user's events (in order); an app without streak definitions costs one cached read. */
  async onEvents(appId: string, userId: string, events: StreakEvent[]): Promise<Map<string, StreakStepOutcome>> {
    const out = new Map<string, StreakStepOutcome>();
    if (events.length === 0) return out;
    const definitions = await this.definitions.all(appId);
    if (definitions.length === 0) return out;
    const key = engagementUserId(appId, userId);
    let doc: EngagementUserDoc | null = null;
    let planned: Planned | null = null;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      // The document as this process last read or wrote it (the first try): most events change no streak (one
      // extension per period), and a stale copy cannot make one look unchanged (a period extended stays
      // extended; a streak ends only after a period without one), while a change planned on it is a
      // compare-and-set that a newer version refuses (then read again).
      doc = attempt === 0 ? await this.recent.get(key, () => this.users.ofUser(appId, userId)) : await this.users.ofUser(appId, userId);
      planned = this.plan(appId, userId, doc, definitions, events);
      if (!planned.moved) break;
      const checkAt = checkAtOf(definitions, planned.streaks);
      if (await this.save(appId, userId, doc, planned.streaks, checkAt, planned.events)) {
        this.recent.set(key, written(doc, appId, userId, planned.streaks, checkAt));
        break;
      }
      this.recent.invalidate(key);
      planned = null;
    }
    if (!planned) throw new Error('streaks not written after many concurrent changes');
    for (const [eventId, extensions] of planned.outcomes) out.set(eventId, { extensions, granted: null });
    const trigger = [...planned.outcomes.keys()].at(-1) ?? null;
    const granted = await this.payDue(appId, userId, definitions, planned.streaks, trigger);
    if (granted && trigger) out.set(trigger, { extensions: out.get(trigger)?.extensions ?? [], granted });
    return out;
  }

  /** The events' effect on the user's streaks, and the events it announces (pure but for the clock-free inputs). */
  private plan(appId: string, userId: string, doc: EngagementUserDoc | null, definitions: StreakDefinitionDoc[], events: StreakEvent[]): Planned {
    const streaks: Record<string, StreakState> = { ...(doc?.streaks ?? {}) };
    const announced: DomainEvent[] = [];
    const outcomes = new Map<string, StreakExtensionDoc[]>();
    let moved = false;
    for (const event of events) {
      const zone = event.timeZone ?? doc?.timeZone ?? DEFAULT_ZONE;
      for (const definition of definitions) {
        const rule = streakRule(definition);
        if (!qualifies(rule, event.actionKey)) continue;
        const state = streaks[rule.key] ?? newStreak(zone);
        // Processed before (a recovered event): answered as then, nothing moves again.
        if (state.lastEventId === event.eventId && state.lastExtension) {
          outcomes.set(event.eventId, [...(outcomes.get(event.eventId) ?? []), state.lastExtension]);
          continue;
        }
        const period = periodIndex(rule.period, event.at, zone);
        const step = extend(state, rule, { period, id: event.eventId, at: event.at, timeZone: zone });
        if (step.changes.length === 0) continue;
        moved = true;
        streaks[rule.key] = step.state;
        for (const change of step.changes) {
          announced.push(streakEvent(appId, userId, change, { period: rule.period, timeZone: zone, currentPeriod: period, eventId: event.eventId, at: event.at }));
          if (change.kind === 'extended') outcomes.set(event.eventId, [...(outcomes.get(event.eventId) ?? []), change.extension]);
        }
      }
    }
    return { streaks, events: announced, outcomes, moved };
  }

  /** Stores the streaks at the version read, with their events; false when another writer moved first. */
  private async save(
    appId: string,
    userId: string,
    doc: EngagementUserDoc | null,
    streaks: Record<string, StreakState>,
    checkAt: Date | undefined,
    events: DomainEvent[],
  ): Promise<boolean> {
    const carried = this.carrier.carry(events);
    const saved = await this.users.save(appId, userId, doc?.v ?? 0, { timeZone: doc?.timeZone ?? null, streaks, checkAt }, carried);
    if (saved) carried.written({ _id: engagementUserId(appId, userId), appId });
    return saved;
  }

  /** Pays the rewards the streaks hold due, then clears them (a failed clear is harmless: the ledger keys pay once). */
  private async payDue(
    appId: string,
    userId: string,
    definitions: StreakDefinitionDoc[],
    streaks: Record<string, StreakState>,
    triggeredBy: string | null,
  ): Promise<StreakGrantOutcome | null> {
    const due = definitions.flatMap((definition) => {
      const state = streaks[definition.key];
      if (!state || state.rewardsDue.length === 0 || state.runStart === null) return [];
      return state.rewardsDue.map((length) => ({ definition, runStart: state.runStart as number, length }));
    });
    const streakLongest = Object.fromEntries(Object.entries(streaks).map(([key, s]) => [key, s.longest]));
    if (due.length === 0) {
      // A STREAK milestone may still be due (defined after the streak got there): the grant step checks it.
      return triggeredBy ? this.rewards.grant(appId, userId, [], triggeredBy, streakLongest) : null;
    }
    const granted = await this.rewards.grant(appId, userId, due, triggeredBy, streakLongest);
    await this.clearDue(appId, userId, definitions).catch((err: unknown) => this.logger.warn({ err, appId }, 'could not clear streak rewards paid; the next step finds them paid'));
    return granted;
  }

  private async clearDue(appId: string, userId: string, definitions: StreakDefinitionDoc[]): Promise<void> {
    this.recent.invalidate(engagementUserId(appId, userId));
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const doc = await this.users.ofUser(appId, userId);
      if (!doc) return;
      const streaks = Object.fromEntries(Object.entries(doc.streaks).map(([key, s]) => [key, { ...s, rewardsDue: [] }]));
      if (await this.users.save(appId, userId, doc.v, { timeZone: doc.timeZone, streaks, checkAt: checkAtOf(definitions, streaks) }, this.carrier.carry([]))) return;
    }
  }

  /** Every streak definition of the app with the user's progress, as of now. */
  async userStreaks(appId: string, userId: string): Promise<UserStreak[]> {
    const id = checkUserId(userId);
    const [definitions, doc] = await Promise.all([this.definitions.all(appId), this.users.ofUser(appId, id)]);
    const at = now();
    const userZone = doc?.timeZone ?? DEFAULT_ZONE;
    return definitions.map((definition) => {
      const rule = streakRule(definition);
      const state = doc?.streaks[definition.key];
      // A running streak is read in the zone its periods were counted in; otherwise the user's.
      const zone = state && state.length > 0 ? state.timeZone : userZone;
      const view = streakView(state ?? newStreak(zone), rule, periodIndex(rule.period, at, zone), zone);
      return { key: definition.key, name: definition.name, period: definition.period, ...view };
    });
  }

  async settings(appId: string, userId: string): Promise<UserSettings> {
    const id = checkUserId(userId);
    const doc = await this.users.ofUser(appId, id);
    return { userId: id, timeZone: doc?.timeZone ?? DEFAULT_ZONE, updatedAt: doc?.updatedAt ?? null };
  }

  /** Sets the user's time zone: streaks count their next periods in it (an event's own zone still wins for that event). */
  async putSettings(appId: string, userId: string, timeZone: string): Promise<UserSettings> {
    const id = checkUserId(userId);
    const zone = checkTimeZone(timeZone);
    const definitions = await this.definitions.all(appId);
    this.recent.invalidate(engagementUserId(appId, id));
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const doc = await this.users.ofUser(appId, id);
      const streaks = doc?.streaks ?? {};
      if (await this.users.save(appId, id, doc?.v ?? 0, { timeZone: zone, streaks, checkAt: checkAtOf(definitions, streaks) }, this.carrier.carry([]))) {
        return { userId: id, timeZone: zone, updatedAt: new Date() };
      }
    }
    throw new Error('settings not written after many concurrent changes');
  }

  /** Runs the pass now and every `intervalMs` until stop(); a batch that filled its limit runs again at once. */
  startPass(intervalMs: number): void {
    this.pass ??= new PeriodicTask(
      async () => {
        while ((await this.passDue()) === PASS_BATCH);
      },
      { intervalMs, runAtStart: true, onError: (err) => this.logger.warn({ err }, 'streak pass failed; will retry') },
    );
    this.pass.start();
  }

  async stop(): Promise<void> {
    await this.pass?.stop();
  }

  /**
   * The pass: users whose running streak let a period end without a
   * qualifying event get a freeze used or the streak ended, with
   * streak_frozen / streak_ended, as the next event would have done. A
   * compare-and-set per user: a replica or an event that moved first makes
   * it skip that user (they are no longer due, or the next pass sees them).
   */
  async passDue(limit = PASS_BATCH): Promise<number> {
    const at = now();
    const docs = await this.users.due(at, limit);
    for (const doc of docs) {
      const definitions = await this.definitions.all(doc.appId);
      const streaks: Record<string, StreakState> = { ...doc.streaks };
      const announced: DomainEvent[] = [];
      for (const definition of definitions) {
        const state = streaks[definition.key];
        if (!state || state.length === 0) continue;
        const rule = streakRule(definition);
        const current = periodIndex(rule.period, at, state.timeZone);
        const step = advance(state, rule, current);
        streaks[definition.key] = step.state;
        for (const change of step.changes) {
          announced.push(streakEvent(doc.appId, doc.userId, change, { period: rule.period, timeZone: state.timeZone, currentPeriod: current, eventId: null, at }));
        }
      }
      const carried = this.carrier.carry(announced);
      const checkAt = checkAtOf(definitions, streaks);
      this.recent.invalidate(doc._id);
      if (await this.users.save(doc.appId, doc.userId, doc.v, { timeZone: doc.timeZone, streaks, checkAt }, carried)) carried.written(doc);
    }
    return docs.length;
  }
}

/** The document as a successful write left it. */
function written(doc: EngagementUserDoc | null, appId: string, userId: string, streaks: Record<string, StreakState>, checkAt: Date | undefined): EngagementUserDoc {
  const now = new Date();
  return { _id: engagementUserId(appId, userId), appId, userId, timeZone: doc?.timeZone ?? null, createdAt: doc?.createdAt ?? now, ...doc, streaks, checkAt, v: (doc?.v ?? 0) + 1, updatedAt: now };
}

/** The earliest time the pass must look at these streaks (streaks of deleted definitions are left alone). */
function checkAtOf(definitions: StreakDefinitionDoc[], streaks: Record<string, StreakState>): Date | undefined {
  let earliest: Date | undefined;
  for (const definition of definitions) {
    const state = streaks[definition.key];
    const at = state ? nextCheck(state, streakRule(definition)) : null;
    if (at && (!earliest || at < earliest)) earliest = at;
  }
  return earliest;
}
