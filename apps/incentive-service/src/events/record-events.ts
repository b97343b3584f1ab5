import { PeriodicTask } from '@ris/service-runtime';
import type { JsonObject } from '@bufbuild/protobuf';
import { crashPoint, now } from '@ris/config';
import { characterCount } from '@ris/contracts';
import { conflict, invalid, isDomainError, notFound, refused, unavailable } from '@ris/domain-errors';
import type { Outbox, OutboxCarrier } from '@ris/events';
import type { Logger } from '@ris/logging';
import { newId, type Page, type PageQuery } from '@ris/mongo';
import type { ActionDoc } from '../actions/action.model';
import { decideReward } from '../actions/action-rules';
import type { Actions } from '../actions/actions';
import { applyMovement, repayingDebt, type BalanceState, type LedgerBoost, type Movement } from '../ledger/balance-fold';
import { boosted } from '../boosts/boost-choice';
import type { Boosts } from '../boosts/boosts';
import { checkTimeZone, type Streaks } from '../streaks/streaks';
import { checkKey, checkUserId } from '../definitions/definition-key';
import { eventEntryKey, keyedEventId, operationEventId } from './derived-ids';
import type { EventClaimDoc } from './event-claim.model';
import type { EventClaims } from './event-claims';
import { GroupedRuns } from './grouped-runs';
import { eventProcessed } from './incentive-domain-events';
import type { EventInputDoc, EventResultDoc, EventSourceName, IncentiveEventDoc } from './incentive-event.model';
import type { EventListFilter, IncentiveEventRepository } from './incentive-event.repository';
import type { Ledger } from '../ledger/ledger';
import type { LedgerEntryDoc } from '../ledger/ledger-entry.model';
import { levelNumberAt, type LevelDef } from '../progression/level-progress';
import type { Levels } from '../progression/levels';
import { xpThatFits } from '../ledger/reward-amounts';
import type { IncentiveSeries } from '../series/incentive-series';
import type { RewardGrants } from '../ledger/reward-grants';
import { incentiveEventsProcessed } from './event-metrics';

export interface EventInput {
  userId: string;
  actionKey: string;
  idempotencyKey: string | null;
  /**
   * From the request's Idempotency-Key, for an event without an
   * idempotencyKey of its own (null or empty otherwise): the event's id
   * derives from it, so a retried request is the same event.
   */
  operationKey?: string | null;
  metadata: JsonObject | null;
  source: EventSourceName;
  /** The domain event that fired it (referral actions). */
  sourceEventId: string | null;
  /** IANA zone its streak periods are read in; absent: the user's, else UTC. */
  timeZone?: string | null;
}

export interface RecordedEvent {
  event: IncentiveEventDoc;
  /** The idempotency key had been seen: this is the first result again. */
  duplicate: boolean;
}

/**
 * An event's answer: recorded (or recorded before), or why not: a domain
 * error of its own (a bad event fails alone), or any other error (the
 * database) of the part of the call it was in.
 */
export type RecordOutcome = RecordedEvent | Error;

export interface RecordOptions {
  /**
   * A failure while writing one user's balance is the answer of that user's
   * events only, the others are recorded: for single calls recorded
   * together (SingleEventCommit), each of which alone would have failed or
   * not on its own. Without it (a bulk call) it fails the call, as always.
   */
  usersFailAlone?: boolean;
}

const notProcessed = () => new Error('event was not processed');
const DAY_MS = 86_400_000;

/** What an entry earned, pending or not, before any of it repaid a debt. */
const earned = (m: Pick<Movement, 'coins' | 'xp' | 'tokens' | 'pendingCoins' | 'pendingTokens' | 'debtRepaid'>) => ({
  coins: m.coins + Math.max(0, m.pendingCoins ?? 0) + (m.debtRepaid?.coins ?? 0),
  xp: m.xp,
  tokens: m.tokens + Math.max(0, m.pendingTokens ?? 0) + (m.debtRepaid?.tokens ?? 0),
});
const asError = (err: unknown) => (err instanceof Error ? err : new Error(String(err)));

export const MAX_EVENTS_PER_CALL = 1000;
const MAX_METADATA_BYTES = 16 * 1024;
const MAX_IDEMPOTENCY_KEY = 255;
/**
 * Users processed at once within one call (each user's events stay in
 * order). Small: the store serializes writes anyway (FerretDB entirely),
 * and more in flight only queues.
 */
const USER_CONCURRENCY = 4;
/** How long a duplicate waits for the request that holds its key. */
const WAIT_FOR_HOLDER_MS = 8_000;
const MAX_PLAN_ATTEMPTS = 200;
/** Calls slower than this are logged (with their size) to spot a struggling store. */
const SLOW_CALL_MS = 2_000;

/** One event being processed. */
interface WorkItem {
  index: number;
  eventId: string;
  input: EventInput;
  metadataJson: string | null;
  action: ActionDoc;
  createdAt: Date;
  /** Taken over from a holder that died: its ledger entry may exist already. */
  recovering: boolean;
  /** The boost its reward is multiplied by (decided when it is received). */
  boost: LedgerBoost | null;
  outcome?: EventResultDoc;
}


/** Keyed events (an idempotencyKey, or a request's operation key) are one event however often they arrive. */
const isKeyed = (input: EventInput) => Boolean(input.idempotencyKey || input.operationKey);

function eventIdOf(appId: string, userId: string, input: EventInput): string {
  if (input.idempotencyKey) return keyedEventId(appId, userId, input.idempotencyKey);
  if (input.operationKey) return operationEventId(appId, input.operationKey);
  return newId('evt');
}

/** The event as received: what its claim holds while it is processed and its document keeps. */
function eventInput(appId: string, item: WorkItem): EventInputDoc {
  return {
    _id: item.eventId,
    appId,
    userId: item.input.userId,
    actionKey: item.input.actionKey,
    idempotencyKey: item.input.idempotencyKey,
    source: item.input.source,
    sourceEventId: item.input.sourceEventId,
    metadataJson: item.metadataJson,
    timeZone: item.input.timeZone ?? null,
    boost: item.boost,
    createdAt: item.createdAt,
  };
}

/** The event's reward for a balance at `currentXp` (XP stops at MAX_XP: see xpThatFits). */
function eventMovement(item: WorkItem, currentXp: number): Movement {
  const multiplier = item.boost?.multiplier ?? 1;
  const coins = boosted(item.action.coins, multiplier);
  const tokens = item.action.tokens;
  // An action with pendingDays credits its coins and tokens as pending: the dues pass releases them (XP counts at once).
  const pendingDays = item.action.pendingDays ?? 0;
  const pending = pendingDays > 0 && (coins > 0 || tokens > 0);
  return {
    key: eventEntryKey(item.eventId),
    reason: 'ACTION_REWARD',
    cause: 'EVENT',
    coins: pending ? 0 : coins,
    xp: xpThatFits(currentXp, boosted(item.action.xp, multiplier)),
    tokens: pending ? 0 : tokens,
    ...(pending ? { pendingCoins: coins, pendingTokens: tokens, pendingUntil: new Date(item.createdAt.getTime() + pendingDays * DAY_MS) } : {}),
    boost: item.boost,
    sourceId: item.eventId,
    actionKey: item.action.key,
    actionType: item.action.type,
    level: null,
    milestoneKey: null,
    perks: [],
    description: item.action.name,
    createdAt: item.createdAt,
  };
}

const summary = (s: Pick<BalanceState, 'coins' | 'xp' | 'tokens'>, ladder: LevelDef[]) => ({
  coins: s.coins,
  xp: s.xp,
  tokens: s.tokens,
  level: levelNumberAt(ladder, s.xp),
});

function crossing(ladder: LevelDef[], xpBefore: number, xpAfter: number): EventResultDoc['levelUp'] {
  const from = levelNumberAt(ladder, xpBefore);
  const to = levelNumberAt(ladder, xpAfter);
  return to > from ? { from, to } : null;
}

async function inPool<T>(items: T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
}

export interface EventRecorderDeps {
  events: IncentiveEventRepository;
  actions: Actions;
  levels: Levels;
  ledger: Ledger;
  grants: RewardGrants;
  claims: EventClaims;
  outbox: Outbox;
  logger: Logger;
  /** Counts the recorded events into the actions' and the app's series (kept on write). */
  series?: Pick<IncentiveSeries, 'countEvents'>;
  /** The streak step of each user's events (absent: none, as in some specs). */
  streaks?: Pick<Streaks, 'onEvents'>;
  /** The boost of an event (absent: none). */
  boosts?: Pick<Boosts, 'forEvent'>;
}

/**
 * POST /incentives/events and /events/bulk, and the referral actions.
 *
 * Per event: a claim (keyed events: one request at a time), then the reward
 * decision and ledger entry, planned against the user's balance version and
 * written with the ledger's compare-and-set (so cooldown, maxRepeats and
 * "a key is applied once" hold under any concurrency), then level and
 * milestone grants, then the event document (which duplicates are answered
 * from) with its event, and the claim's release.
 *
 * A bulk call takes the same path: each user's events are planned in input
 * order and written as one batch of ledger entries and one balance update,
 * split only where an event makes a level or milestone due.
 */
export class EventRecorder {
  private readonly events: IncentiveEventRepository;
  private readonly perUser = new GroupedRuns<WorkItem>();
  /** Keyed events being recorded by this process, by event id: duplicates wait on these. */
  private readonly inFlight = new Map<string, Promise<IncentiveEventDoc>>();
  private recovery?: PeriodicTask;
  /** incentive.event.processed, stored with the event documents. */
  private readonly processedEvents: OutboxCarrier;

  constructor(private readonly deps: EventRecorderDeps) {
    this.events = deps.events;
    // Event documents are written again to store their events again (see storeEvents, resume) and to count the
    // duplicates answered from them: the repository writes each one at a time, with the outbox clean-up.
    this.processedEvents = deps.events.carrier(deps.outbox);
  }

  async record(appId: string, inputs: EventInput[], options: RecordOptions = {}): Promise<RecordOutcome[]> {
    const started = Date.now();
    const outcomes = await this.recordAll(appId, inputs, options);
    const ms = Date.now() - started;
    if (ms > SLOW_CALL_MS) this.deps.logger.warn({ appId, events: inputs.length, ms }, 'slow incentive event call');
    return outcomes;
  }

  private async recordAll(appId: string, inputs: EventInput[], options: RecordOptions): Promise<RecordOutcome[]> {
    if (inputs.length > MAX_EVENTS_PER_CALL) throw invalid(`at most ${MAX_EVENTS_PER_CALL} events per call`);
    const outcomes: Array<RecordOutcome | undefined> = new Array(inputs.length);
    // The services' clock (tests move it: streak periods, boosts' windows).
    const createdAt = now();
    const actions = new Map<string, Promise<ActionDoc | null>>();
    const firstOf = new Map<string, number>();
    const duplicateOf = new Map<number, number>();
    const candidates: WorkItem[] = [];

    await Promise.all(
      inputs.map(async (input, index) => {
        try {
          const userId = checkUserId(input.userId);
          checkKey(input.actionKey, 'actionKey');
          if (input.idempotencyKey !== null && (!input.idempotencyKey || characterCount(input.idempotencyKey) > MAX_IDEMPOTENCY_KEY)) {
            throw invalid(`idempotencyKey must be 1 to ${MAX_IDEMPOTENCY_KEY} characters`);
          }
          const metadataJson = input.metadata ? JSON.stringify(input.metadata) : null;
          const timeZone = input.timeZone ? checkTimeZone(input.timeZone) : null;
          if (metadataJson && Buffer.byteLength(metadataJson) > MAX_METADATA_BYTES) throw invalid('metadata must be at most 16 KiB of JSON');
          if (!actions.has(input.actionKey)) actions.set(input.actionKey, this.deps.actions.find(appId, input.actionKey));
          const action = await actions.get(input.actionKey);
          if (!action) throw notFound('Action', { actionKey: input.actionKey });
          if (input.source === 'API' && action.type !== 'STANDARD') {
            // 422: the event is well formed; the stored action is not one the API may post.
            throw refused('ACTION_NOT_POSTABLE', `Action ${action.key} is of type ${action.type}: it fires from referral events, not from the API.`, {
              actionKey: action.key,
              type: action.type,
            });
          }
          const eventId = eventIdOf(appId, userId, input);
          const boost = this.deps.boosts ? await this.deps.boosts.forEvent(appId, action.key, userId, createdAt) : null;
          candidates.push({
            index,
            eventId,
            input: { ...input, userId, timeZone },
            metadataJson,
            action,
            createdAt,
            recovering: false,
            boost: boost ? { id: boost._id, name: boost.name, multiplier: boost.multiplier } : null,
          });
        } catch (err) {
          // A bad event fails alone; anything else (the database) fails the call.
          if (!isDomainError(err)) throw err;
          outcomes[index] = err;
        }
      }),
    );
    candidates.sort((a, b) => a.index - b.index);

    // The same key twice in one call: the later one is a duplicate of the first.
    const unique: WorkItem[] = [];
    for (const item of candidates) {
      const first = firstOf.get(item.eventId);
      if (first === undefined) {
        firstOf.set(item.eventId, item.index);
        unique.push(item);
      } else duplicateOf.set(item.index, first);
    }

    // A keyed event already being processed in this process: wait for that
    // result in memory (no database work). Otherwise this call owns it here,
    // and later duplicates in this process will wait for it.
    // The holder's promise is taken here, with the check, never looked up
    // again: its owner drops it from inFlight as soon as it settles, which
    // may be before this call gets to wait on it.
    const joined: Array<{ item: WorkItem; result: Promise<IncentiveEventDoc> }> = [];
    const owned: WorkItem[] = [];
    const settle = new Map<string, (outcome: RecordOutcome | undefined) => void>();
    for (const item of unique) {
      if (!isKeyed(item.input)) {
        owned.push(item);
        continue;
      }
      const holding = this.inFlight.get(item.eventId);
      if (holding) {
        joined.push({ item, result: holding });
        continue;
      }
      owned.push(item);
      let resolve!: (event: IncentiveEventDoc) => void;
      let reject!: (err: unknown) => void;
      const result = new Promise<IncentiveEventDoc>((res, rej) => ((resolve = res), (reject = rej)));
      result.catch(() => undefined);
      this.inFlight.set(item.eventId, result);
      settle.set(item.eventId, (outcome) => {
        this.inFlight.delete(item.eventId);
        if (outcome && !(outcome instanceof Error)) resolve(outcome.event);
        else reject(outcome ?? notProcessed());
      });
    }
    try {
      await this.recordOwned(appId, owned, outcomes, options);
    } finally {
      for (const item of owned) settle.get(item.eventId)?.(outcomes[item.index]);
    }
    await Promise.all(
      joined.map(async ({ item, result }) => {
        try {
          outcomes[item.index] = { event: await result, duplicate: true };
        } catch (err) {
          outcomes[item.index] = asError(err);
        }
      }),
    );

    for (const [index, first] of duplicateOf) {
      const original = outcomes[first];
      outcomes[index] = original instanceof Error || !original ? original : { event: original.event, duplicate: true };
    }
    await this.countDuplicates(appId, outcomes);
    return outcomes.map((o) => o ?? notProcessed());
  }

  /**
   * Adds the call's duplicate answers to their events' `duplicates` (one
   * $inc per event, only on the replay path). A failure is logged: the
   * answers stand, the count stays short.
   */
  private async countDuplicates(appId: string, outcomes: Array<RecordOutcome | undefined>): Promise<void> {
    const repeats = new Map<string, number>();
    for (const o of outcomes) if (o && !(o instanceof Error) && o.duplicate) repeats.set(o.event._id, (repeats.get(o.event._id) ?? 0) + 1);
    await Promise.all(
      [...repeats].map(([id, n]) =>
        this.events
          .addDuplicates(appId, id, n)
          .catch((err: unknown) => this.deps.logger.warn({ err, appId, eventId: id }, 'could not count a duplicate of an event')),
      ),
    );
  }

  /** The database side of recording: first results, claims, processing, waiting for other replicas. */
  private async recordOwned(appId: string, unique: WorkItem[], outcomes: Array<RecordOutcome | undefined>, options: RecordOptions): Promise<void> {
    // Claim first, then look for a keyed event recorded before: a claim is
    // deleted once its event is written, so only a look made while holding
    // the claim is conclusive (one read per keyed event; a replay pays a
    // claim and its release instead, and replays are the rare case).
    const claimed = await this.deps.claims.claim(unique.map((item) => this.claimDoc(appId, item)));
    const mine = unique.filter((_, i) => claimed[i]);
    const held = unique.filter((_, i) => !claimed[i]);
    const done = await this.alreadyRecorded(appId, mine.filter((i) => isKeyed(i.input)));
    await this.releaseStored(appId, [...done.keys()]);
    for (const item of mine) if (done.has(item.eventId)) outcomes[item.index] = { event: done.get(item.eventId) as IncentiveEventDoc, duplicate: true };

    const work = mine.filter((i) => !done.has(i.eventId));
    let processed: Array<[WorkItem, IncentiveEventDoc]>;
    const failed = options.usersFailAlone ? new Map<WorkItem, Error>() : undefined;
    try {
      processed = await this.process(appId, work, failed);
    } catch (err) {
      // Some effects may be written: the claims must be finished, not dropped.
      // Expiring them lets a retry with the same key (or the recovery pass) do that at once.
      await this.deps.claims.expire(appId, work.map((i) => i.eventId)).catch(() => undefined);
      throw err;
    }
    for (const [item, event] of processed) outcomes[item.index] = { event, duplicate: false };
    if (failed?.size) {
      await this.deps.claims.expire(appId, [...failed.keys()].map((i) => i.eventId)).catch(() => undefined);
      for (const [item, err] of failed) outcomes[item.index] = err;
    }

    // Held by another replica (or a dead holder): wait for it, or take over.
    await Promise.all(
      held.map(async (item) => {
        try {
          outcomes[item.index] = await this.waitForHolder(appId, item);
        } catch (err) {
          outcomes[item.index] = asError(err);
        }
      }),
    );
  }

  /**
   * Releases the claims of events that are stored. Their answers stand
   * whatever happens to this clean-up, so a failure is logged, never the
   * call's: a claim left behind costs a duplicate one lookup, and the
   * recovery pass removes it (it finds the event stored).
   */
  private async releaseStored(appId: string, eventIds: string[]): Promise<void> {
    await this.deps.claims
      .release(appId, eventIds)
      .catch((err: unknown) => this.deps.logger.warn({ err, appId, events: eventIds.length }, 'could not release event claims; the recovery pass will'));
  }

  private claimDoc(appId: string, item: WorkItem): EventClaimDoc {
    return {
      ...eventInput(appId, item),
      lockedUntil: new Date(item.createdAt.getTime() + this.deps.claims.leaseMs),
      holder: this.deps.claims.liveness.instanceId,
    };
  }

  private async alreadyRecorded(appId: string, items: WorkItem[]): Promise<Map<string, IncentiveEventDoc>> {
    const found = new Map<string, IncentiveEventDoc>();
    // One _id lookup each: the cheapest query there is (an $in is not, on FerretDB).
    await inPool(items, 16, async (item) => {
      const event = await this.events.findById(appId, item.eventId);
      if (event) found.set(item.eventId, event);
    });
    return found;
  }

  /**
   * Another request holds this key: wait for its result, or take over if it
   * died (its process no longer beats, or its lease ran out). Either way this request's answer is that event,
   * as a duplicate.
   */
  private async waitForHolder(appId: string, item: WorkItem): Promise<RecordedEvent> {
    const deadline = Date.now() + WAIT_FOR_HOLDER_MS;
    // Back off: many duplicates polling hard would slow the holder they wait for.
    let delay = 20;
    for (let poll = 0; ; poll += 1) {
      const event = await this.events.findById(appId, item.eventId);
      if (event) return { event, duplicate: true };
      if (poll % 4 === 3) {
        const claim = await this.deps.claims.find(appId, item.eventId);
        const taken = claim && (await this.deps.claims.isAbandoned(claim)) ? await this.deps.claims.takeOver(claim) : null;
        if (taken) {
          const [resumed] = await this.resume([taken]);
          if (resumed) return { event: resumed, duplicate: true };
        }
      }
      if (Date.now() > deadline) {
        throw unavailable('An event with this key is still being processed; retry shortly.');
      }
      await new Promise((resolve) => setTimeout(resolve, delay * (0.5 + Math.random())));
      delay = Math.min(250, delay * 1.5);
    }
  }

  /** Finishes events whose claims were taken over (a retry of a dead request, or the recovery pass). */
  async resume(claims: EventClaimDoc[]): Promise<IncentiveEventDoc[]> {
    const byApp = new Map<string, WorkItem[]>();
    for (const [index, claim] of claims.entries()) {
      const action = await this.deps.actions.find(claim.appId, claim.actionKey);
      if (!action) {
        // Actions are never deleted; a claim for an unknown one cannot finish.
        this.deps.logger.error({ eventId: claim._id, appId: claim.appId }, 'claim names an unknown action; dropped');
        await this.deps.claims.release(claim.appId, [claim._id]);
        continue;
      }
      const item: WorkItem = {
        index,
        eventId: claim._id,
        input: {
          userId: claim.userId,
          actionKey: claim.actionKey,
          idempotencyKey: claim.idempotencyKey,
          metadata: claim.metadataJson ? (JSON.parse(claim.metadataJson) as JsonObject) : null,
          source: claim.source,
          sourceEventId: claim.sourceEventId,
          timeZone: claim.timeZone ?? null,
        },
        metadataJson: claim.metadataJson,
        action,
        createdAt: claim.createdAt,
        recovering: true,
        boost: claim.boost ?? null,
      };
      byApp.set(claim.appId, [...(byApp.get(claim.appId) ?? []), item]);
    }
    const finished: IncentiveEventDoc[] = [];
    for (const [appId, items] of byApp) {
      // Its holder died after writing the event (before releasing the claim):
      // nothing to redo, the claim only goes, its event stored again first
      // (same id) in case that holder had not stored it (see storeEvents).
      const recorded = await this.alreadyRecorded(appId, items);
      await Promise.all([...recorded.values()].map((doc) => this.announceAgain(doc)));
      if (recorded.size) await this.deps.claims.release(appId, [...recorded.keys()]);
      finished.push(...recorded.values());
      for (const [, event] of await this.process(appId, items.filter((i) => !recorded.has(i.eventId)))) finished.push(event);
    }
    return finished;
  }

  /** Runs the recovery pass now and every `intervalMs` until stop(). */
  startRecovery(intervalMs = 2_000): void {
    this.recovery ??= new PeriodicTask(() => this.recoverExpiredClaims(), {
      intervalMs,
      runAtStart: true,
      onError: (err) => this.deps.logger.warn({ err }, 'event recovery pass failed; will retry'),
    });
    this.recovery.start();
  }

  async stop(): Promise<void> {
    await this.recovery?.stop();
  }

  /** Recovery pass: finishes events whose holders died. */
  async recoverExpiredClaims(limit = 100): Promise<number> {
    // Taken over one by one, then finished together: resume groups them by
    // app and user (one group commit for the burst a dead process leaves).
    const taken = await this.deps.claims.takeOverAbandoned(limit, this.deps.logger);
    if (taken.length) {
      this.deps.logger.warn({ count: taken.length }, 'finishing events whose processing was interrupted');
      await this.resume(taken);
    }
    return taken.length;
  }

  /**
   * Processes claimed events and stores their results; returns each stored
   * item's event document. With `failed`, a user whose balance writes fail
   * has their items put there (their error) instead of failing all items.
   */
  private async process(appId: string, items: WorkItem[], failed?: Map<WorkItem, Error>): Promise<Array<[WorkItem, IncentiveEventDoc]>> {
    if (items.length === 0) return [];
    const byUser = new Map<string, WorkItem[]>();
    for (const item of items) byUser.set(item.input.userId, [...(byUser.get(item.input.userId) ?? []), item]);
    // Concurrent calls for the same user join one batch (group commit); the
    // batch runs after any other balance change of the user in this process.
    await inPool([...byUser.entries()], USER_CONCURRENCY, async ([userId, userItems]) => {
      try {
        await this.perUser.submit(`${appId}\u0000${userId}`, userItems, (batch) =>
          this.deps.ledger.serialized(appId, userId, async () => {
            await this.processUser(appId, userId, batch);
            await this.streakStep(appId, userId, batch);
          }),
        );
      } catch (err) {
        if (!failed) throw err;
        for (const item of userItems) failed.set(item, asError(err));
      }
    });

    const stored = failed ? items.filter((item) => !failed.has(item)) : items;
    if (stored.length === 0) return [];
    const docs: IncentiveEventDoc[] = stored.map((item) => ({ ...eventInput(appId, item), result: item.outcome as EventResultDoc }));
    await this.storeEvents(appId, docs);
    // Counted once stored: one increment per bucket for the whole call, which nobody waits for (it never raises).
    this.deps.series?.countEvents(appId, docs);
    await this.releaseStored(appId, docs.map((d) => d._id));
    return stored.map((item, i) => [item, docs[i]]);
  }

  /**
   * Inserts the event documents with their incentive.event.processed
   * events, in one write: the events of the call ride on its last document
   * (so the relay clears one document per call). Unordered: a recovered
   * event that its first holder wrote after all keeps that first document
   * (its event stored with it); if that was the last one, the call's events
   * are stored on the last document that did go in.
   */
  private async storeEvents(appId: string, docs: IncentiveEventDoc[]): Promise<void> {
    const carried = this.processedEvents.carry(docs.map(eventProcessed));
    const last = docs.length - 1;
    const inserted = await this.events.store(docs.map((doc, i) => (i === last ? { ...doc, ...carried.fields } : doc)));
    if (inserted?.every(Boolean)) {
      crashPoint('incentive.event.processed');
      carried.written(docs[last]);
      incentiveEventsProcessed.inc(docs.length);
      return;
    }
    if (inserted?.[last]) {
      carried.written(docs[last]);
      return;
    }
    const host = inserted ? docs.filter((_, i) => inserted[i]).at(-1) : undefined;
    if (host) {
      await this.events.carryAgain(appId, host._id, carried.update({}));
      carried.written(host);
      return;
    }
    // Which ones went in is not known: each one stores its own again.
    await Promise.all(docs.map((doc) => this.announceAgain(doc)));
  }

  /** Stores an event document's incentive.event.processed again (the same id: published once). */
  private async announceAgain(doc: IncentiveEventDoc): Promise<void> {
    const carried = this.processedEvents.carry([eventProcessed(doc)]);
    if (await this.events.carryAgain(doc.appId, doc._id, carried.update({}))) carried.written(doc);
  }

  /**
   * Decides and writes one user's events, in order. Plans against the
   * balance version it read; the ledger's compare-and-set rejects the plan
   * if anything moved meanwhile, and it plans again from the new version.
   */
  private async processUser(appId: string, userId: string, items: WorkItem[]): Promise<void> {
    const { ledger, grants, levels } = this.deps;
    let pending = items;
    let state = await ledger.read(appId, userId);
    for (let attempt = 0; pending.length > 0; attempt += 1) {
      if (attempt >= MAX_PLAN_ATTEMPTS) throw conflict('CONFLICT', 'Too many concurrent changes to this user; retry.');
      pending = await this.settleRecovered(appId, userId, pending);
      if (pending.length === 0) break;
      const ladder = await levels.list(appId);

      const plan: Array<{ item: WorkItem; outcome: EventResultDoc; movement: number }> = [];
      const movements: Movement[] = [];
      let planned = state;
      let grantTrigger = false;
      for (const item of pending) {
        const refusal = decideReward(item.action, planned.actions[item.action.key], item.createdAt);
        if (refusal) {
          plan.push({ item, movement: -1, outcome: this.outcome(null, refusal, summary(planned, ladder), null) });
          continue;
        }
        const movement = eventMovement(item, planned.xp);
        const before = planned;
        // As the ledger will write it: a balance in debt repays it first (the answer's balance says so).
        planned = applyMovement(planned, repayingDebt(planned, movement));
        movements.push(movement);
        plan.push({
          item,
          movement: movements.length - 1,
          outcome: this.outcome(
            earned(movement),
            null,
            summary(planned, ladder),
            crossing(ladder, before.xp, planned.xp),
            movement.boost ?? null,
            movement.pendingUntil ?? null,
          ),
        });
        // Grants come next, before any later event: stop the batch here.
        if (await grants.anyDue(appId, planned)) {
          grantTrigger = true;
          break;
        }
      }

      const result = await ledger.append(appId, userId, state, movements);
      const committed = result.entries.length;
      const firstOpen = plan.findIndex((p) => p.movement >= committed);
      const settledCount = firstOpen === -1 ? plan.length : firstOpen;
      for (const p of plan.slice(0, settledCount)) p.item.outcome = p.outcome;
      pending = pending.slice(settledCount);

      if (result.kind === 'applied') {
        state = result.state;
        if (grantTrigger) {
          const trigger = plan[plan.length - 1];
          const granted = await grants.grantDue(appId, userId, state, trigger.item.eventId);
          state = granted.state;
          const outcome = trigger.item.outcome as EventResultDoc;
          outcome.balance = summary(state, await levels.list(appId));
          outcome.badgesAwarded = granted.badges;
          outcome.milestonesReached = granted.milestones;
        }
      } else {
        if (result.keyTaken) {
          // Recorded by a holder we took over from: look it up instead of planning it.
          for (const item of pending) if (eventEntryKey(item.eventId) === result.keyTaken) item.recovering = true;
        }
        state = await ledger.afterConflict(appId, userId, attempt);
      }
    }
  }

  /**
   * The streak step of a user's processed events (an event of a disabled
   * action does not count). A failure is logged, not the events': their
   * rewards are written and stand; the streak may miss that period.
   */
  private async streakStep(appId: string, userId: string, items: WorkItem[]): Promise<void> {
    const { streaks, ledger, levels } = this.deps;
    if (!streaks) return;
    const counted = items.filter((i) => i.outcome && i.outcome.reason !== 'ACTION_DISABLED');
    try {
      const stepped = await streaks.onEvents(
        appId,
        userId,
        counted.map((i) => ({ eventId: i.eventId, actionKey: i.action.key, at: i.createdAt, timeZone: i.input.timeZone ?? null })),
      );
      for (const item of counted) {
        const step = stepped.get(item.eventId);
        const outcome = item.outcome as EventResultDoc;
        if (!step) continue;
        outcome.streaksExtended = step.extensions;
        if (!step.granted) continue;
        outcome.badgesAwarded = [...outcome.badgesAwarded, ...step.granted.badges];
        outcome.milestonesReached = [...outcome.milestonesReached, ...step.granted.milestones];
        // Its answer's balance includes what the streak paid.
        const { state } = await ledger.settled(appId, userId);
        const ladder = await levels.list(appId);
        const before = outcome.balance.level;
        outcome.balance = summary(state, ladder);
        if (outcome.balance.level > before) outcome.levelUp = { from: outcome.levelUp?.from ?? before, to: outcome.balance.level };
      }
    } catch (err) {
      this.deps.logger.warn({ err, appId }, 'streak step failed; the events stand, their streaks may miss this period');
    }
  }

  /**
   * Recovered events whose ledger entry exists get their outcome from it
   * (and finish any grant it left due); the rest are planned normally.
   */
  private async settleRecovered(appId: string, userId: string, pending: WorkItem[]): Promise<WorkItem[]> {
    const { ledger, grants, levels } = this.deps;
    const open: WorkItem[] = [];
    for (const item of pending) {
      if (!item.recovering || item.outcome) {
        if (!item.outcome) open.push(item);
        continue;
      }
      const entry = await ledger.findByKey(appId, eventEntryKey(item.eventId));
      if (!entry) {
        item.recovering = false;
        open.push(item);
        continue;
      }
      const ladder = await levels.list(appId);
      item.outcome = this.outcomeFromEntry(entry, ladder);
      const { state } = await ledger.settled(appId, userId);
      if (await grants.anyDue(appId, state)) {
        const granted = await grants.grantDue(appId, userId, state, item.eventId);
        item.outcome.badgesAwarded = granted.badges;
        item.outcome.milestonesReached = granted.milestones;
        item.outcome.balance = summary(granted.state, ladder);
      }
    }
    return open;
  }

  private outcomeFromEntry(entry: LedgerEntryDoc, ladder: LevelDef[]): EventResultDoc {
    return this.outcome(
      earned(entry),
      null,
      summary(entry.balanceAfter, ladder),
      crossing(ladder, entry.balanceAfter.xp - entry.xp, entry.balanceAfter.xp),
      entry.boost ?? null,
      entry.pendingUntil ?? null,
    );
  }

  private outcome(
    rewarded: EventResultDoc['rewarded'],
    reason: EventResultDoc['reason'],
    balance: EventResultDoc['balance'],
    levelUp: EventResultDoc['levelUp'],
    // The boost that multiplied the reward.
    boost: LedgerBoost | null = null,
    pendingUntil: Date | null = null,
  ): EventResultDoc {
    return { rewarded, reason, balance, levelUp, badgesAwarded: [], milestonesReached: [], streaksExtended: [], boost, pendingUntil };
  }

  list(appId: string, page: PageQuery, filter: EventListFilter): Promise<Page<IncentiveEventDoc>> {
    return this.events.page(appId, page, filter);
  }
}
