import { AckPolicy, DeliverPolicy, nanos, type ConsumerMessages } from 'nats';
import { Schema, type Connection, type Model } from 'mongoose';
import type { Logger } from '@ris/logging';
import { insertOnce } from '@ris/mongo';
import { SpanKind, inSpan, tracingEnabled } from '@ris/telemetry';
import type { DomainEvent } from './domain-event';
import type { EventBus } from './event-bus';
import { eventHandling, eventsConsumed, eventsFailed, eventsRedelivered, unwatchConsumer, watchConsumer } from './event-metrics';

interface ProcessedEvent {
  _id: string;
  consumer: string;
  eventId: string;
  processedAt: Date;
}

const processedSchema = new Schema<ProcessedEvent>(
  {
    // `${consumer}:${eventId}`: the unique key that makes handling idempotent.
    _id: { type: String, required: true },
    consumer: { type: String, required: true },
    eventId: { type: String, required: true },
    processedAt: { type: Date, required: true },
  },
  { collection: 'processed_events', versionKey: false },
);

export interface EventConsumerOptions {
  bus: EventBus;
  /** Durable consumer name; one per (service, purpose). Replicas share it. */
  durable: string;
  /** Event types to receive, e.g. ['referral.created']. */
  types: string[];
  /** Database of the consuming service: processed event ids live there. */
  connection: Connection;
  logger: Logger;
  /** `redelivered`: the stream sent this event before (a handling failed, or its acknowledgement was lost). */
  handle: (event: DomainEvent, delivery: { redelivered: boolean }) => Promise<void>;
  /** Redelivery delay after a failed handling. */
  retryDelayMs?: number;
  /**
   * Events handled at the same time (default 1: one after the other, in
   * stream order). Only for handlers that do not depend on order; each
   * event is still acknowledged only after its own handling succeeded.
   */
  concurrency?: number;
  /**
   * The handler is idempotent by its own keys (a unique index, an
   * idempotency key), so a redelivered event may simply run it again: no
   * processed-id record is read or written (two database commands per
   * event saved, on the stream's busiest types).
   */
  idempotentHandler?: boolean;
}

/**
 * A durable JetStream pull consumer with explicit acks. Each event is
 * handled once per consumer: its id is recorded after the handler succeeds,
 * and a redelivered event that is already recorded is acknowledged without
 * running the handler again. Handlers are still written to be idempotent
 * by their own keys, for the crash between handling and recording; those
 * that are (idempotentHandler) skip the record.
 */
export class EventConsumer {
  private messages?: ConsumerMessages;
  private stopped = false;
  private readonly processed: Model<ProcessedEvent>;
  private loop?: Promise<void>;

  constructor(private readonly options: EventConsumerOptions) {
    const { connection } = options;
    this.processed =
      (connection.models.ProcessedEvent as Model<ProcessedEvent> | undefined) ??
      connection.model<ProcessedEvent>('ProcessedEvent', processedSchema);
  }

  start(): void {
    this.loop = this.run().catch((err) => {
      if (!this.stopped) this.options.logger.error({ err, durable: this.options.durable }, 'consumer stopped');
    });
  }

  private async run(): Promise<void> {
    const { bus, durable, types, logger } = this.options;
    const { js, jsm } = await bus.jetstream();
    if (this.stopped) return;
    // NATS 2.9 (Debian's) takes one filter subject per consumer: a consumer
    // of one type filters on the server, one of several takes the stream's
    // subjects and skips other types here.
    const filterSubject = types.length === 1 ? bus.subjectFor(types[0]) : bus.subjectFor('>');
    const wanted = new Set(types);
    try {
      await jsm.consumers.info(bus.stream, durable);
      await jsm.consumers.update(bus.stream, durable, { filter_subject: filterSubject });
    } catch {
      await jsm.consumers.add(bus.stream, {
        durable_name: durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        filter_subject: filterSubject,
        ack_wait: nanos(30_000),
        max_deliver: -1,
      });
    }
    const consumer = await js.consumers.get(bus.stream, durable);
    watchConsumer({
      durable,
      lag: async () => {
        const info = await jsm.consumers.info(bus.stream, durable);
        return { pending: info.num_pending, ackPending: info.num_ack_pending };
      },
    });
    this.messages = await consumer.consume({ max_messages: 64 });
    logger.info({ durable, types }, 'consumer started');
    const concurrency = Math.max(1, this.options.concurrency ?? 1);
    const running = new Set<Promise<void>>();
    for await (const message of this.messages) {
      let event: DomainEvent;
      try {
        event = bus.decode(message.data);
      } catch (err) {
        logger.error({ err, subject: message.subject }, 'undecodable event dropped');
        message.term();
        continue;
      }
      if (!wanted.has(event.type)) {
        message.ack();
        continue;
      }
      if (message.redelivered) eventsRedelivered.inc({ consumer: durable });
      const handled = (async () => {
        const end = eventHandling.startTimer({ consumer: durable });
        try {
          // Continues the trace of the change that stored the event (its message's headers).
          if (tracingEnabled()) {
            await inSpan(`consume ${event.type}`, { kind: SpanKind.CONSUMER, parent: message.headers, attributes: { 'messaging.system': 'nats', 'messaging.consumer.group.name': durable, 'messaging.message.id': event.id } }, () => this.handleOnce(event, message.redelivered));
          } else {
            await this.handleOnce(event, message.redelivered);
          }
          message.ack();
          eventsConsumed.inc({ consumer: durable });
        } catch (err) {
          eventsFailed.inc({ consumer: durable });
          logger.warn({ err, eventId: event.id, type: event.type }, 'event handling failed; will be redelivered');
          message.nak(this.options.retryDelayMs ?? 2000);
        } finally {
          end();
        }
      })();
      if (concurrency === 1) {
        await handled;
        continue;
      }
      const tracked: Promise<void> = handled.finally(() => running.delete(tracked));
      running.add(tracked);
      if (running.size >= concurrency) await Promise.race(running);
    }
    await Promise.all(running);
  }

  private async handleOnce(event: DomainEvent, redelivered: boolean): Promise<void> {
    if (this.options.idempotentHandler) return this.options.handle(event, { redelivered });
    const key = `${this.options.durable}:${event.id}`;
    if (await this.processed.exists({ _id: key }).exec()) return;
    await this.options.handle(event, { redelivered });
    // Already there: a redelivery that raced this one marked it first.
    await insertOnce(this.processed, { _id: key, consumer: this.options.durable, eventId: event.id, processedAt: new Date() });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    unwatchConsumer(this.options.durable);
    this.messages?.stop();
    await this.loop;
  }
}
