import {
  connect,
  headers as natsHeaders,
  DiscardPolicy,
  JSONCodec,
  RetentionPolicy,
  StorageType,
  nanos,
  type JetStreamClient,
  type JetStreamManager,
  type NatsConnection,
} from 'nats';
import type { Logger } from '@ris/logging';
import { SpanKind, inSpan, traceHeaders, tracingEnabled } from '@ris/telemetry';
import type { DomainEvent } from './domain-event';
import { eventPublishFailures, eventsPublished } from './event-metrics';

export interface EventBusOptions {
  url: string;
  stream: string;
  subjectPrefix: string;
  /** Connection name shown by the NATS server (the service name). */
  name: string;
  logger: Logger;
}

const codec = JSONCodec<DomainEvent>();
const utf8 = new TextEncoder();

/**
 * The JetStream connection of one process. Connecting happens in the
 * background and retries forever: a service starts, and keeps writing its
 * outbox, while NATS is down; the relay publishes once it is back.
 */
export class EventBus {
  private connection?: NatsConnection;
  private readonly connected: Promise<{ js: JetStreamClient; jsm: JetStreamManager }>;
  private closed = false;

  constructor(readonly options: EventBusOptions) {
    this.connected = this.connectLoop();
    // Callers that never await must not crash the process on a rejection.
    this.connected.catch(() => undefined);
  }

  get stream(): string {
    return this.options.stream;
  }

  subjectFor(type: string): string {
    return `${this.options.subjectPrefix}.${type}`;
  }

  typeFromSubject(subject: string): string {
    return subject.slice(this.options.subjectPrefix.length + 1);
  }

  isConnected(): boolean {
    return !!this.connection && !this.connection.isClosed() && this.connection.info !== undefined && !this.reconnecting;
  }

  private reconnecting = false;

  private async connectLoop(): Promise<{ js: JetStreamClient; jsm: JetStreamManager }> {
    const { logger } = this.options;
    let attempt = 0;
    for (;;) {
      if (this.closed) throw new Error('event bus closed');
      try {
        const nc = await connect({
          servers: this.options.url,
          name: this.options.name,
          maxReconnectAttempts: -1,
          reconnectTimeWait: 1000,
          // nats.js otherwise captures two stack traces per request (every
          // JetStream publish is one) in case it times out; with source maps
          // on, that was the relay's costliest line per event.
          noAsyncTraces: true,
        });
        this.connection = nc;
        void this.watchStatus(nc);
        const jsm = await nc.jetstreamManager();
        await this.ensureStream(jsm);
        logger.info({ url: this.options.url, stream: this.options.stream }, 'nats connected');
        return { js: nc.jetstream(), jsm };
      } catch (err) {
        attempt += 1;
        if (attempt === 1 || attempt % 30 === 0) logger.warn({ err, attempt }, 'nats not reachable yet; retrying');
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  }

  private async watchStatus(nc: NatsConnection): Promise<void> {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect' || status.type === 'reconnecting') this.reconnecting = true;
      if (status.type === 'reconnect') this.reconnecting = false;
    }
  }

  private async ensureStream(jsm: JetStreamManager): Promise<void> {
    const subjects = [`${this.options.subjectPrefix}.>`];
    const config = {
      name: this.options.stream,
      subjects,
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      discard: DiscardPolicy.Old,
      max_age: nanos(7 * 24 * 3600 * 1000),
      // Publishes with the same Nats-Msg-Id inside this window are dropped:
      // an outbox entry published twice (relay crash, two replicas) is stored once.
      duplicate_window: nanos(10 * 60 * 1000),
    };
    try {
      await jsm.streams.info(this.options.stream);
    } catch {
      try {
        await jsm.streams.add(config);
      } catch (err) {
        // Another service created it at the same moment.
        await jsm.streams.info(this.options.stream).catch(() => {
          throw err;
        });
      }
    }
  }

  /** Resolves once connected (waits through a NATS outage). */
  jetstream(): Promise<{ js: JetStreamClient; jsm: JetStreamManager }> {
    return this.connected;
  }

  /**
   * Publishes an event already encoded as JSON (as the outbox stores it:
   * no parse and re-encode per event), with Nats-Msg-Id = its id.
   */
  async publish(event: { id: string; type: string; json: string; traceparent?: string }): Promise<void> {
    try {
      if (!this.isConnected()) throw new Error('nats is not connected');
      const { js } = await this.connected;
      if (!tracingEnabled() && !event.traceparent) {
        await js.publish(this.subjectFor(event.type), utf8.encode(event.json), { msgID: event.id, timeout: 5000 });
      } else {
        // The trace of the change that stored the event goes along in the
        // message's headers (through a span of its publication when this
        // process traces), for the consumers to continue.
        await inSpan(`publish ${event.type}`, { kind: SpanKind.PRODUCER, parent: event.traceparent, attributes: { 'messaging.system': 'nats', 'messaging.message.id': event.id } }, async () => {
          const headers = natsHeaders();
          const trace = tracingEnabled() ? traceHeaders() : { traceparent: event.traceparent as string };
          for (const [key, value] of Object.entries(trace)) headers.set(key, value);
          await js.publish(this.subjectFor(event.type), utf8.encode(event.json), { msgID: event.id, timeout: 5000, headers });
        });
      }
    } catch (err) {
      eventPublishFailures.inc({ type: event.type });
      throw err;
    }
    eventsPublished.inc({ type: event.type });
  }

  decode(data: Uint8Array): DomainEvent {
    return codec.decode(data);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.connection && !this.connection.isClosed()) await this.connection.drain().catch(() => undefined);
  }
}
