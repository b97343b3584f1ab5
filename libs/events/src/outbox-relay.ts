import type { Logger } from '@ris/logging';
import type { EventBus } from './event-bus';
import type { CarriedEvent, CarrierRef, Outbox, OutboxCarrier, StoredEvents } from './outbox';

export interface OutboxRelayOptions {
  /** How often to look for events left behind (a failed publish, a process that died). */
  sweepIntervalMs?: number;
  /** Events younger than this are left to the process that wrote them. */
  sweepAfterMs?: number;
  /** Most events published together. */
  batchSize?: number;
}

const MAX_PAGES_PER_SWEEP = 50;

interface SweptDoc {
  _id: string;
  appId: string;
  outbox?: CarriedEvent[];
  outboxAt?: Date;
  [field: string]: unknown;
}

/**
 * Publishes the events documents carry (see Outbox) to JetStream, each
 * with Nats-Msg-Id = event id, then removes them from their documents.
 *
 * The process that wrote a change publishes its events right away (it
 * knows them without reading them back), many at a time, in the order
 * they were written. A periodic sweep publishes, oldest first, whatever
 * waits longer than a moment: events stored while NATS was down, or by a
 * process that died before publishing. Per change that costs the publish
 * and a share of one batched update: no reads, claims or marks in the
 * request path's database.
 *
 * Every replica sweeps; two publishing the same event is absorbed by
 * JetStream's duplicate window (and consumers are idempotent beyond it).
 */
export class OutboxRelay {
  private timer?: NodeJS.Timeout;
  private stopped = true;
  /** Stopping: no more sweeps, but this process's new events still go out before stop() returns. */
  private draining = false;
  private fresh: StoredEvents[] = [];
  private publishingFresh = false;
  private sweeping = false;
  private readonly sweepIntervalMs: number;
  private readonly sweepAfterMs: number;
  private readonly batchSize: number;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly outbox: Outbox,
    private readonly bus: EventBus,
    private readonly logger: Logger,
    options: OutboxRelayOptions = {},
  ) {
    this.sweepIntervalMs = options.sweepIntervalMs ?? 1000;
    this.sweepAfterMs = options.sweepAfterMs ?? 2000;
    this.batchSize = options.batchSize ?? 200;
    outbox.onStored((stored) => this.added(stored));
  }

  start(): void {
    this.stopped = false;
    const tick = () => {
      if (this.stopped) return;
      this.track(this.sweep());
      this.timer = setTimeout(tick, this.sweepIntervalMs);
      this.timer.unref();
    };
    tick();
  }

  /**
   * Stops sweeping and returns once the events this process wrote so far
   * are published (or, NATS being away, left to the next sweep of any
   * replica): a graceful stop sends what its last requests stored.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.draining = true;
    if (this.timer) clearTimeout(this.timer);
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
    this.draining = false;
  }

  /** Publishes every event waiting longer than sweepAfterMs, oldest first; returns how many went out. */
  async sweep(): Promise<number> {
    if (this.sweeping || !this.bus.isConnected()) return 0;
    this.sweeping = true;
    let total = 0;
    try {
      // Each carrier on its own: an event that keeps failing to publish holds
      // up its own carrier's sweep, never the other carriers'.
      for (const carrier of this.outbox.all()) {
        total += await this.sweepCarrier(carrier).catch((err: unknown) => {
          this.logger.warn({ err, collection: carrier.name }, 'outbox sweep of a collection failed; will retry');
          return 0;
        });
      }
      total += await this.drainLegacy();
    } catch (err) {
      this.logger.warn({ err }, 'outbox sweep failed; will retry');
    } finally {
      this.sweeping = false;
    }
    return total;
  }

  private async sweepCarrier(carrier: OutboxCarrier): Promise<number> {
    let total = 0;
    // Bounded: a page whose documents could not be cleared (changed again
    // meanwhile) comes back first; the next sweep goes on from there.
    for (let page = 0; page < MAX_PAGES_PER_SWEEP; page += 1) {
      // Across apps: a system job; each document is cleared under its own appId.
      const docs = (await carrier.collection
        .find({ outboxPending: true }, { projection: carrier.projection() })
        .sort({ outboxAt: 1 })
        .limit(this.batchSize)
        .toArray()) as unknown as SweptDoc[];
      const cutoff = Date.now() - this.sweepAfterMs;
      const due = [];
      for (const doc of docs) {
        // Oldest first: from the first young one on, the writers still have them.
        if (doc.outboxAt && doc.outboxAt.getTime() > cutoff) break;
        due.push({ carrier, doc: carrier.ref(doc), events: doc.outbox ?? [] });
      }
      if (due.length > 0) await this.publish(due);
      total += due.reduce((sum, d) => sum + d.events.length, 0);
      if (due.length < this.batchSize || this.stopped) return total;
    }
    return total;
  }

  /** Entries an earlier release left in its outbox collection, oldest first: published, then deleted. */
  private async drainLegacy(): Promise<number> {
    const legacy = this.outbox.legacy();
    let total = 0;
    for (;;) {
      const entries = await legacy.find({}).sort({ createdAt: 1, n: 1 }).limit(this.batchSize).toArray();
      if (entries.length === 0) return total;
      const results = await Promise.allSettled(entries.map((e) => this.bus.publish({ id: e._id, type: e.type, json: e.event })));
      const published = entries.filter((_, i) => results[i].status === 'fulfilled').map((e) => e._id);
      if (published.length > 0) await legacy.deleteMany({ _id: { $in: published } });
      total += published.length;
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
      if (entries.length < this.batchSize || this.stopped) return total;
    }
  }

  private added(stored: StoredEvents): void {
    if (this.stopped && !this.draining) return;
    this.fresh.push(stored);
    if (!this.publishingFresh) this.track(this.publishFresh());
  }

  /** This process's new events, batch after batch in the order written; what fails is left to the sweep. */
  private async publishFresh(): Promise<void> {
    this.publishingFresh = true;
    try {
      while (this.fresh.length > 0 && (!this.stopped || this.draining)) {
        let take = 0;
        let events = 0;
        while (take < this.fresh.length && (take === 0 || events + this.fresh[take].events.length <= this.batchSize)) {
          events += this.fresh[take].events.length;
          take += 1;
        }
        const batch = this.fresh.splice(0, take);
        if (!this.bus.isConnected()) continue;
        await this.publish(batch).catch((err: unknown) => this.logger.warn({ err }, 'outbox publish failed; the sweep will retry'));
      }
    } finally {
      this.publishingFresh = false;
    }
  }

  /**
   * Publishes the events (sent in order on one connection, acknowledged
   * together), then clears the documents all of whose events here
   * JetStream acknowledged.
   */
  private async publish(batch: StoredEvents[]): Promise<void> {
    const events = batch.flatMap((stored) => stored.events);
    const results = await Promise.allSettled(events.map((event) => this.bus.publish(event)));
    // One entry per document: two changes of it in this batch are cleared together.
    const docs = new Map<string, { carrier: OutboxCarrier; doc: CarrierRef; events: CarriedEvent[]; ok: boolean }>();
    let next = 0;
    for (const { carrier, doc, events: own } of batch) {
      const ok = own.every((_, i) => results[next + i].status === 'fulfilled');
      next += own.length;
      const key = `${carrier.name}\u0000${doc.appId}\u0000${doc._id}`;
      const entry = docs.get(key);
      if (entry) {
        entry.events.push(...own);
        entry.ok &&= ok;
      } else {
        docs.set(key, { carrier, doc, events: [...own], ok });
      }
    }
    const byCarrier = new Map<OutboxCarrier, Array<{ doc: CarrierRef; events: CarriedEvent[] }>>();
    for (const { carrier, doc, events: own, ok } of docs.values()) {
      if (!ok) continue;
      byCarrier.set(carrier, [...(byCarrier.get(carrier) ?? []), { doc, events: own }]);
    }
    await Promise.all([...byCarrier].map(([carrier, published]) => carrier.clear(published)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  private track(work: Promise<unknown>): void {
    const done: Promise<void> = work.then(
      () => undefined,
      () => undefined,
    );
    this.inFlight.add(done);
    void done.finally(() => this.inFlight.delete(done));
  }
}
