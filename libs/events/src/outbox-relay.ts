import type { Logger } from '@ris/logging';
import type { EventBus } from './event-bus';
import type { Outbox, OutboxEntry } from './outbox';

export interface OutboxRelayOptions {
  /** How often to look for entries left behind (a failed publish, a process that died). */
  sweepIntervalMs?: number;
  /** Entries younger than this are left to the process that wrote them. */
  sweepAfterMs?: number;
  batchSize?: number;
}

/**
 * Publishes outbox entries to JetStream, each with Nats-Msg-Id = event id,
 * then deletes them.
 *
 * The process that stored an entry publishes it right away (it knows it
 * without reading it back), many at a time. A periodic sweep publishes, oldest first, whatever
 * is left older than a moment: entries stored while NATS was down, or by
 * a process that died before publishing. Per event that costs the publish
 * and a share of one delete per add(): no reads, claims or marks in the
 * request path's database.
 *
 * Every replica sweeps; two publishing the same entry is absorbed by
 * JetStream's duplicate window (and consumers are idempotent beyond it).
 */
export class OutboxRelay {
  private timer?: NodeJS.Timeout;
  private stopped = true;
  private fresh: OutboxEntry[] = [];
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
    outbox.onAdded((entries) => this.added(entries));
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

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  /** Publishes, oldest first, every entry older than sweepAfterMs; returns how many went out. */
  async sweep(): Promise<number> {
    if (this.sweeping || !this.bus.isConnected()) return 0;
    this.sweeping = true;
    let total = 0;
    try {
      for (;;) {
        const entries = await this.outbox.model
          .find({ createdAt: { $lte: new Date(Date.now() - this.sweepAfterMs) } })
          .sort({ createdAt: 1, n: 1 })
          .limit(this.batchSize)
          .lean<OutboxEntry[]>()
          .exec();
        if (entries.length > 0) await this.publish(entries);
        total += entries.length;
        if (entries.length < this.batchSize || this.stopped) return total;
      }
    } catch (err) {
      this.logger.warn({ err }, 'outbox sweep failed; will retry');
      return total;
    } finally {
      this.sweeping = false;
    }
  }

  private added(entries: OutboxEntry[]): void {
    if (this.stopped) return;
    this.fresh.push(...entries);
    if (!this.publishingFresh) this.track(this.publishFresh());
  }

  /** This process's new entries, batch after batch; what fails is left to the sweep. */
  private async publishFresh(): Promise<void> {
    this.publishingFresh = true;
    try {
      while (this.fresh.length > 0 && !this.stopped) {
        const batch = this.fresh.splice(0, this.batchSize);
        if (!this.bus.isConnected()) continue;
        await this.publish(batch).catch((err: unknown) => this.logger.warn({ err }, 'outbox publish failed; the sweep will retry'));
      }
    } finally {
      this.publishingFresh = false;
    }
  }

  /**
   * Publishes the entries (sent in order on one connection, acknowledged
   * together) and deletes those JetStream acknowledged.
   */
  private async publish(entries: OutboxEntry[]): Promise<void> {
    const results = await Promise.allSettled(entries.map((entry) => this.bus.publish({ id: entry._id, type: entry.type, json: entry.event })));
    const published = new Map<string, string[]>();
    entries.forEach((entry, i) => {
      if (results[i].status !== 'fulfilled') return;
      const ids = published.get(entry.batch) ?? [];
      ids.push(entry._id);
      published.set(entry.batch, ids);
    });
    await Promise.all([...published].map(([batch, ids]) => this.outbox.model.deleteMany({ batch, _id: { $in: ids } }).exec()));
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
