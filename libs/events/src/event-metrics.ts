import { Counter, Gauge, Histogram } from 'prom-client';
import type { Outbox } from './outbox';

// The event pipeline as an operator watches it: what went out, what each
// consumer took, redelivered and failed, how far behind it is, and how
// long events wait in their documents before they are published.

export const eventsPublished = new Counter({
  name: 'ris_events_published_total',
  help: 'Events JetStream acknowledged from this process, by type',
  labelNames: ['type'],
});

export const eventPublishFailures = new Counter({
  name: 'ris_events_publish_failures_total',
  help: 'Publishes that failed (left in their documents for the sweep), by type',
  labelNames: ['type'],
});

export const eventsConsumed = new Counter({
  name: 'ris_events_consumed_total',
  help: 'Events a consumer handled and acknowledged, by consumer',
  labelNames: ['consumer'],
});

export const eventsRedelivered = new Counter({
  name: 'ris_events_redelivered_total',
  help: 'Deliveries of an event a consumer had been given before (a failure or a timeout earlier), by consumer',
  labelNames: ['consumer'],
});

export const eventsFailed = new Counter({
  name: 'ris_events_failed_total',
  help: 'Handlings that failed (the event is redelivered later), by consumer',
  labelNames: ['consumer'],
});

export const eventHandling = new Histogram({
  name: 'ris_event_handling_duration_seconds',
  help: 'Time a consumer took to handle an event, by consumer',
  labelNames: ['consumer'],
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
});

/** What the lag gauges ask at a scrape: a consumer of this process, by its durable name. */
export interface LagSource {
  durable: string;
  lag(): Promise<{ pending: number; ackPending: number } | null>;
}

const lagSources = new Map<string, LagSource>();
const outboxes = new Set<Outbox>();

export function watchConsumer(source: LagSource): void {
  lagSources.set(source.durable, source);
}

export function unwatchConsumer(durable: string): void {
  lagSources.delete(durable);
}

export function watchOutbox(outbox: Outbox): void {
  outboxes.add(outbox);
}

const ackPendingGauge = new Gauge({
  name: 'ris_consumer_ack_pending_messages',
  help: 'Messages a durable consumer was given and has not acknowledged yet, by consumer',
  labelNames: ['consumer'],
});

// Asked from JetStream at each scrape: every replica of a service reports the
// same durable consumer's numbers (alerts take the max).
new Gauge({
  name: 'ris_consumer_lag_messages',
  help: 'Messages of the stream a durable consumer has not been given yet (JetStream num_pending), by consumer',
  labelNames: ['consumer'],
  async collect() {
    this.reset();
    ackPendingGauge.reset();
    await Promise.all(
      [...lagSources.values()].map(async (source) => {
        const lag = await source.lag().catch(() => null);
        if (!lag) return;
        this.set({ consumer: source.durable }, lag.pending);
        ackPendingGauge.set({ consumer: source.durable }, lag.ackPending);
      }),
    );
  },
});

const oldestGauge = new Gauge({
  name: 'ris_outbox_oldest_age_seconds',
  help: 'Age of the oldest event waiting in a document to be published, by collection (0: none waits)',
  labelNames: ['collection'],
});

// Two indexed queries per collection that carries events, at each scrape.
new Gauge({
  name: 'ris_outbox_pending_documents',
  help: 'Documents carrying events not published yet (the outbox backlog), by collection',
  labelNames: ['collection'],
  async collect() {
    this.reset();
    oldestGauge.reset();
    const now = Date.now();
    for (const outbox of outboxes) {
      await Promise.all(
        outbox.all().map(async (carrier) => {
          const [count, oldest] = await Promise.all([
            carrier.collection.countDocuments({ outboxPending: true }),
            carrier.collection.find({ outboxPending: true }, { projection: { outboxAt: 1 } }).sort({ outboxAt: 1 }).limit(1).next(),
          ]).catch(() => [null, null] as const);
          if (count === null) return;
          this.set({ collection: carrier.name }, count);
          const at = (oldest as { outboxAt?: Date } | null)?.outboxAt;
          oldestGauge.set({ collection: carrier.name }, at ? Math.max(0, (now - at.getTime()) / 1000) : 0);
        }),
      );
    }
  },
});
