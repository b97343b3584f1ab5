import type { Logger } from '@ris/logging';
import type { DomainEvent } from './domain-event';
import type { EventBus } from './event-bus';
import type { Outbox } from './outbox';

export interface OutboxRelayOptions {
  /** How often to look for entries when nothing nudged the relay. */
  pollIntervalMs?: number;
  /** How long a claimed entry stays with this replica before another may take it. */
  leaseMs?: number;
  /** Published entries are removed after this long (FerretDB has no TTL indexes). */
  retainPublishedMs?: number;
  batchSize?: number;
}

/**
 * Publishes outbox entries to JetStream, oldest first, each with
 * Nats-Msg-Id = event id. Replicas claim entries with a lease, and
 * JetStream's duplicate window absorbs the rare double publish, so running
 * one relay per replica is safe.
 */
export class OutboxRelay {
  private timer?: NodeJS.Timeout;
  private running = false;
  private again = false;
  private stopped = false;
  private lastCleanup = 0;
  private readonly pollIntervalMs: number;
  private readonly leaseMs: number;
  private readonly retainPublishedMs: number;
  private readonly batchSize: number;

  constructor(
    private readonly outbox: Outbox,
    private readonly bus: EventBus,
    private readonly logger: Logger,
    options: OutboxRelayOptions = {},
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.retainPublishedMs = options.retainPublishedMs ?? 24 * 3600 * 1000;
    this.batchSize = options.batchSize ?? 200;
    outbox.onAdded(() => this.nudge());
  }

  start(): void {
    this.stopped = false;
    const tick = () => {
      if (this.stopped) return;
      this.nudge();
      this.timer = setTimeout(tick, this.pollIntervalMs);
      this.timer.unref();
    };
    tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    while (this.running) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  /** Runs a pass now, or right after the one in progress. */
  nudge(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void this.drain().finally(() => {
      this.running = false;
      if (this.again && !this.stopped) {
        this.again = false;
        this.nudge();
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (!this.stopped && this.bus.isConnected()) {
        const published = await this.publishBatch();
        if (published < this.batchSize) break;
      }
      await this.cleanup();
    } catch (err) {
      this.logger.warn({ err }, 'outbox relay pass failed; will retry');
    }
  }

  /** Publishes one batch; returns how many entries it handled. */
  async publishBatch(): Promise<number> {
    const now = new Date();
    const candidates = await this.outbox.model
      .find({ publishedAt: null, lockedUntil: { $lte: now } })
      .sort({ createdAt: 1 })
      .limit(this.batchSize)
      .lean()
      .exec();
    let handled = 0;
    for (const candidate of candidates) {
      // Claim it: only one replica wins the lease.
      const claimed = await this.outbox.model
        .findOneAndUpdate(
          { _id: candidate._id, publishedAt: null, lockedUntil: { $lte: now } },
          { $set: { lockedUntil: new Date(Date.now() + this.leaseMs) }, $inc: { attempts: 1 } },
          { new: true },
        )
        .lean()
        .exec();
      if (!claimed) continue;
      const event = JSON.parse(claimed.event) as DomainEvent;
      try {
        await this.bus.publish(event);
      } catch (err) {
        // Give the lease back so the next pass (or replica) retries it.
        await this.outbox.model.updateOne({ _id: claimed._id }, { $set: { lockedUntil: new Date(0) } }).exec();
        throw err;
      }
      await this.outbox.model.updateOne({ _id: claimed._id }, { $set: { publishedAt: new Date() } }).exec();
      handled += 1;
    }
    return candidates.length === 0 ? 0 : Math.max(handled, candidates.length);
  }

  private async cleanup(): Promise<void> {
    if (Date.now() - this.lastCleanup < 10 * 60 * 1000) return;
    this.lastCleanup = Date.now();
    await this.outbox.model
      .deleteMany({ publishedAt: { $ne: null, $lt: new Date(Date.now() - this.retainPublishedMs) } })
      .exec();
  }
}
