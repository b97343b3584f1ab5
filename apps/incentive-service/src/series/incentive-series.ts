import type { Logger } from '@ris/logging';
import { readSeries, seriesRange, timeBucketTargets, type SeriesInterval, type SeriesRange, type TimeBucketTarget } from '@ris/mongo';
import { notFound } from '@ris/domain-errors';
import type { ActiveUserDoc } from './active-user.model';
import type { ActiveUserRepository } from './active-user.repository';
import type { Actions } from '../actions/actions';
import type { ActionCounts, EngineCounts, IncentiveBucketDoc } from './incentive-bucket.model';
import type { IncentiveBucketFields, IncentiveBucketRepository } from './incentive-bucket.repository';
import type { IncentiveEventDoc } from '../events/incentive-event.model';
import { causeOf, type LedgerCause } from '../ledger/ledger-cause';
import type { LedgerEntryDoc } from '../ledger/ledger-entry.model';

export const ACTION_FIELDS = ['events', 'rewardedEvents', 'coins', 'xp', 'tokens'] as const;
export const ENGINE_FIELDS = [
  'events',
  'activeUsers',
  'coinsIssued',
  'coinsRedeemed',
  'tokensIssued',
  'tokensRedeemed',
  'xpIssued',
  'redemptions',
  'coinsExpired',
  'tokensExpired',
  'coinsReversed',
  'tokensReversed',
] as const;

export type ActionFigures = Required<ActionCounts>;
export type EngineFigures = Required<EngineCounts>;

/** Causes whose positive amounts are issued: earnings (events, levels, milestones) and credits by hand or by score. */
// A pending credit is issued when it is released (its event's entry credits nothing available).
const ISSUING: ReadonlySet<LedgerCause> = new Set(['EVENT', 'LEVEL', 'MILESTONE', 'STREAK', 'PENDING_RELEASE', 'ADJUSTMENT', 'SCORE_SET']);
const REVERSING: ReadonlySet<LedgerCause> = new Set(['CONVERSION_REVERSAL', 'EVENT_REVERSAL']);
const REDEMPTIONS: ReadonlySet<LedgerCause> = new Set(['CATALOG_REDEMPTION', 'MARKETPLACE_REDEMPTION']);

export const actionSubject = (actionKey: string) => `action:${actionKey}`;
export const ENGINE = 'engine';

/**
 * What ledger entries add to the engine's figures:
 * - coinsIssued, tokensIssued, xpIssued: the positive amounts of earnings
 *   and credits (EVENT, LEVEL, MILESTONE, ADJUSTMENT, SCORE_SET); what an
 *   adjustment or a recorded score takes away is not subtracted;
 * - coinsRedeemed, tokensRedeemed: what redemption debits took, less what
 *   refunds gave back (in the refund's own bucket: net, so it can be
 *   negative in a bucket with more refunds than redemptions);
 * - redemptions: the catalog and marketplace redemption debits.
 */
export function entryFigures(entries: Array<Pick<LedgerEntryDoc, 'reason' | 'sourceId' | 'cause' | 'coins' | 'xp' | 'tokens'>>): EngineCounts {
  const f: EngineCounts = {};
  const add = (field: keyof EngineCounts, amount: number) => {
    if (amount !== 0) f[field] = (f[field] ?? 0) + amount;
  };
  for (const e of entries) {
    const cause = causeOf(e);
    if (ISSUING.has(cause)) {
      add('coinsIssued', Math.max(0, e.coins));
      add('tokensIssued', Math.max(0, e.tokens));
      add('xpIssued', Math.max(0, e.xp));
    } else if (REDEMPTIONS.has(cause)) {
      add('coinsRedeemed', -e.coins);
      add('tokensRedeemed', -e.tokens);
      add('redemptions', 1);
    } else if (cause === 'REFUND') {
      add('coinsRedeemed', -e.coins);
      add('tokensRedeemed', -e.tokens);
    } else if (cause === 'EXPIRY') {
      add('coinsExpired', -e.coins);
      add('tokensExpired', -e.tokens);
    } else if (REVERSING.has(cause)) {
      add('coinsReversed', -e.coins);
      add('tokensReversed', -e.tokens);
    }
  }
  return f;
}

/** What an event adds to its action's figures: one event, and what it paid out if it was rewarded. */
export function eventFigures(event: Pick<IncentiveEventDoc, 'result'>): ActionCounts {
  const paid = event.result.rewarded;
  const f: ActionCounts = { events: 1 };
  if (!paid) return f;
  f.rewardedEvents = 1;
  if (paid.coins) f.coins = paid.coins;
  if (paid.xp) f.xp = paid.xp;
  if (paid.tokens) f.tokens = paid.tokens;
  return f;
}

function addInto(sum: Record<string, number>, counts: Record<string, number | undefined>): void {
  for (const [field, amount] of Object.entries(counts)) if (amount) sum[field] = (sum[field] ?? 0) + amount;
}

/** Counts grouped by bucket document: one increment per document, whatever was counted into it. */
export class Increments {
  readonly byBucket = new Map<string, { appId: string; fields: IncentiveBucketFields; inc: Record<string, number> }>();

  /** Into the hour and the day of `at`; or, with `only`, into that one of the two. */
  add(appId: string, subject: string, at: Date, counts: Record<string, number | undefined>, only?: TimeBucketTarget['interval']): void {
    for (const { _id, ...target } of timeBucketTargets(`${appId}:${subject}`, at)) {
      if (only && target.interval !== only) continue;
      const bucket = this.byBucket.get(_id) ?? { appId, fields: { ...target, subject }, inc: {} };
      this.byBucket.set(_id, bucket);
      addInto(bucket.inc, counts);
    }
  }
}

/** The markers an event of `userId` at `at` makes: its hour's and its day's. */
export function activeUserMarkers(appId: string, userId: string, at: Date): ActiveUserDoc[] {
  return timeBucketTargets(appId, at).map(({ _id, ...target }) => ({ _id: `${_id}:${userId}`, appId, userId, ...target }));
}

/** Markers already known to be stored (made here, or found there): their insert is skipped. Bounded, oldest forgotten first. */
class KnownMarkers {
  private readonly ids = new Set<string>();
  constructor(private readonly max = 100_000) {}

  has(id: string): boolean {
    return this.ids.has(id);
  }

  add(id: string): void {
    this.ids.add(id);
    if (this.ids.size > this.max) this.ids.delete(this.ids.values().next().value as string);
  }
}

/** A series read: every bucket of the range, oldest first, zeros included. */
export interface FigureSeries<F> {
  buckets: Array<{ start: Date } & F>;
  from: Date;
  to: Date;
}

const figuresOf = <F extends string>(fields: readonly F[], doc: Partial<Record<F, number>> | undefined) =>
  Object.fromEntries(fields.map((field) => [field, doc?.[field] ?? 0])) as Record<F, number>;

/**
 * The incentive engine's figures over time, kept on write per UTC hour and
 * day (libs/mongo time-buckets): per action (events of it, rewarded ones,
 * and what they paid out) and for the app (events, active users, coins,
 * tokens and XP issued, coins and tokens redeemed, redemptions).
 *
 * Counted beside the writes they count, never in their way: a call's
 * events when their documents are stored, a ledger write's entries when
 * they are inserted, each as one increment per bucket document whatever
 * the number of events or entries (and the increments of one document
 * coalesce across concurrent calls: DocumentWriteQueue, whose writes of
 * one document start at least BUCKET_WRITE_SPACING_MS apart); nobody waits
 * for them, so they land a moment (at most about a quarter of a second
 * under load) after the write is answered. A failed
 * increment is logged, not raised: the events and movements stand.
 * So a process that dies between a write and its increment leaves a bucket
 * short, and an event finished by the recovery pass after its first holder
 * had counted it counts twice; tools/incentive-rebuild-series.mjs recounts
 * the buckets from the events and the ledger.
 */
export class IncentiveSeries {
  private readonly known = new KnownMarkers();
  /** Counts on their way (see flushed). */
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly buckets: IncentiveBucketRepository,
    private readonly activeUsers: ActiveUserRepository,
    private readonly actions: Actions,
    private readonly logger: Logger,
  ) {}

  /**
   * Counts recorded events (each once: duplicates are not recorded again)
   * into their actions' and the app's buckets, and their users as active.
   * Returns at once: the count lands beside the write, never in its way.
   */
  countEvents(appId: string, events: IncentiveEventDoc[]): void {
    if (events.length === 0) return;
    const increments = new Increments();
    for (const event of events) {
      increments.add(appId, actionSubject(event.actionKey), event.createdAt, eventFigures(event) as Record<string, number | undefined>);
      increments.add(appId, ENGINE, event.createdAt, { events: 1 });
    }
    this.track(appId, 'events', Promise.all([this.apply(appId, increments), this.markActive(appId, events)]));
  }

  /** Counts ledger entries just written into the app's engine buckets; returns at once, as countEvents. */
  countEntries(appId: string, entries: LedgerEntryDoc[]): void {
    const increments = new Increments();
    for (const entry of entries) increments.add(appId, ENGINE, entry.createdAt, entryFigures([entry]) as Record<string, number | undefined>);
    this.track(appId, 'ledger entries', this.apply(appId, increments));
  }

  /** Resolves once every count started before it has landed (or failed and been logged): tests, a graceful stop. */
  async flushed(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  private track(appId: string, what: string, work: Promise<unknown>): void {
    const done: Promise<void> = work.then(
      () => undefined,
      (err: unknown) => {
        this.logger.warn({ err, appId }, `counting ${what} into the incentive series failed; tools/incentive-rebuild-series.mjs recounts`);
      },
    );
    this.pending.add(done);
    void done.finally(() => this.pending.delete(done));
  }

  private async apply(appId: string, increments: Increments): Promise<void> {
    await Promise.all(
      [...increments.byBucket]
        .filter(([, bucket]) => Object.keys(bucket.inc).length > 0)
        .map(([id, { fields, inc }]) => this.buckets.add(appId, id, fields, inc)),
    );
  }

  /** Inserts the user-and-bucket markers not known yet; each one this call made counts its user once in its engine bucket. */
  private async markActive(appId: string, events: IncentiveEventDoc[]): Promise<void> {
    const markers = new Map<string, ActiveUserDoc>();
    for (const event of events) {
      for (const marker of activeUserMarkers(appId, event.userId, event.createdAt)) if (!this.known.has(marker._id)) markers.set(marker._id, marker);
    }
    if (markers.size === 0) return;
    const docs = [...markers.values()];
    const made = await this.activeUsers.mark(docs);
    const increments = new Increments();
    for (const [i, doc] of docs.entries()) {
      this.known.add(doc._id);
      // An hour marker counts its user in the hour's bucket, a day marker in the day's.
      if (made[i]) increments.add(appId, ENGINE, doc.start, { activeUsers: 1 }, doc.interval);
    }
    await this.apply(appId, increments);
  }

  /** An action's figures per hour or day (404 for an action the app does not have). */
  async actionSeries(appId: string, actionKey: string, interval: SeriesInterval, from: Date, to: Date): Promise<FigureSeries<ActionFigures>> {
    if (!(await this.actions.find(appId, actionKey))) throw notFound('Action', { actionKey });
    const range = seriesRange(interval, from, to);
    const docs = await this.read(appId, actionSubject(actionKey), range);
    return { buckets: range.starts.map((start) => ({ start, ...figuresOf(ACTION_FIELDS, docs.get(start.getTime())) })), from: range.start, to: range.end };
  }

  /** The app's engine figures per hour or day, and over the range (active users: distinct over the range, from the markers). */
  async engineSeries(appId: string, interval: SeriesInterval, from: Date, to: Date): Promise<FigureSeries<EngineFigures> & { totals: EngineFigures }> {
    const range = seriesRange(interval, from, to);
    const [docs, activeUsers] = await Promise.all([this.read(appId, ENGINE, range), this.activeUsers.distinctUsers(appId, range)]);
    const buckets = range.starts.map((start) => ({ start, ...figuresOf(ENGINE_FIELDS, docs.get(start.getTime())) }));
    const totals = figuresOf(ENGINE_FIELDS, undefined);
    for (const bucket of buckets) for (const field of ENGINE_FIELDS) totals[field] += bucket[field];
    return { buckets, totals: { ...totals, activeUsers }, from: range.start, to: range.end };
  }

  private read(appId: string, subject: string, range: SeriesRange): Promise<Map<number, IncentiveBucketDoc>> {
    return readSeries(range, (partition, start, end) => this.buckets.inPartition(appId, { subject, interval: range.interval, partition }, start, end));
  }
}
