import { Schema, type Connection, type Model } from 'mongoose';
import { currentTraceparent } from '@ris/telemetry';
import type { DomainEvent } from './domain-event';

/** An event as a document carries it until it is published: the JSON exactly as it goes out. */
export interface CarriedEvent {
  id: string;
  type: string;
  json: string;
  /**
   * The trace of the change that stored it (W3C traceparent), when tracing
   * is on: the relay publishes it in the message's headers, possibly from
   * another process or later, and consumers continue that trace.
   */
  traceparent?: string;
}

/**
 * The fields of a document that carries events while they wait to be
 * published; none of them is there once they are.
 */
export interface OutboxFields {
  /** The waiting events: oldest change first, each change's in order. */
  outbox?: CarriedEvent[];
  /** true exactly while `outbox` holds events: what the sweep finds documents by. */
  outboxPending?: true;
  /** When the oldest waiting event was stored: the sweep leaves younger ones to their writer. */
  outboxAt?: Date;
}

/** The document a write stored events in. */
export interface CarrierDoc {
  _id: string;
  appId: string;
}

/** A document's identity for the relay: _id and appId, and the fields its carrier's lock is keyed by. */
export type CarrierRef = CarrierDoc & Record<string, unknown>;

/**
 * How a carrier's documents are written one at a time in this process.
 * FerretDB v1 runs every update as a read of the whole document and a
 * write of all of it back, so the relay's clean-up of a document running
 * beside another update of it could undo that update. A collection whose
 * documents are written again after they carried events passes the lock
 * its own writes take (SerialByKey, DocumentWriteQueue.exclusive), and
 * the clean-up takes it too. MongoDB's updates are atomic either way.
 */
export interface CarrierLock {
  /** Fields the lock is keyed by, besides _id and appId (the sweep reads them with the events). */
  fields?: string[];
  run<R>(doc: CarrierRef, work: () => Promise<R>): Promise<R>;
}

/** Events stored with one write, ready to be spread into it. */
export interface Carried {
  readonly events: CarriedEvent[];
  /** Spread into a document being inserted: it then carries the events. */
  readonly fields: OutboxFields;
  /** A single-document update extended to store the events with its change (same write). */
  update<U extends object>(update: U): U;
  /** Once the write that stored them succeeded: this process publishes them now (nothing to wait for). */
  written(doc: CarrierDoc): void;
}

/** Events some process of this service stored with a write, for the relay. */
export interface StoredEvents {
  carrier: OutboxCarrier;
  doc: CarrierRef;
  events: CarriedEvent[];
}

const carriedEventSchema = new Schema<CarriedEvent>(
  {
    id: { type: String, required: true },
    type: { type: String, required: true },
    json: { type: String, required: true },
    traceparent: { type: String, default: undefined },
  },
  { _id: false },
);

/**
 * Makes a collection's documents able to carry events: the outbox fields
 * (absent unless events wait) and the sweep's index.
 */
export function carriesEvents(schema: Schema): void {
  schema.add({
    outbox: { type: [carriedEventSchema], default: undefined },
    outboxPending: { type: Boolean, default: undefined },
    outboxAt: { type: Date, default: undefined },
  });
  // The relay's sweep (a system job across apps): documents whose events
  // still wait, oldest first. An equality on outboxPending, which FerretDB
  // answers from this index's GIN twin; sparse, so on MongoDB it holds only
  // the documents with events waiting.
  schema.index({ outboxPending: 1, outboxAt: 1 }, { sparse: true });
}

const CLEARED = { $unset: { outbox: '', outboxPending: '', outboxAt: '' } };

/**
 * The clean-up's filter: the document still carries exactly these events,
 * in this order (a later change's events appended meanwhile make it miss,
 * and the sweep publishes the lot). As many events as ours, the first and
 * the last of them in place suffice: an outbox only grows by appends until
 * it is cleared, and event ids are unique (derived from their change), so
 * one that starts with our first event and holds as many has had nothing
 * cleared or appended since our write. One condition per event, as before,
 * made FerretDB v1 send PostgreSQL a condition per event: a bulk call's
 * document of 1,000 events took half a second to clear. By position:
 * FerretDB v1 does not match `$all` with several values on a field of an
 * array's documents.
 */
function carrying(doc: CarrierRef, events: CarriedEvent[]): Record<string, unknown> {
  const filter: Record<string, unknown> = { _id: doc._id, appId: doc.appId };
  if (events.length === 0) {
    // A flag left without events (nothing writes that; cleared all the same).
    filter.$or = [{ outbox: { $exists: false } }, { outbox: { $size: 0 } }];
    return filter;
  }
  filter.outbox = { $size: events.length };
  filter['outbox.0.id'] = events[0].id;
  if (events.length > 1) filter[`outbox.${events.length - 1}.id`] = events[events.length - 1].id;
  return filter;
}

/** One collection whose documents carry events (see Outbox). */
export class OutboxCarrier {
  readonly name: string;

  constructor(
    readonly model: Model<never>,
    private readonly outbox: Outbox,
    readonly lock?: CarrierLock,
  ) {
    this.name = model.collection.collectionName;
  }

  get collection() {
    return this.model.collection;
  }

  /**
   * The events, encoded once, ready to go into one write: `fields` into an
   * insert, or `update()` around an update; then `written()`.
   */
  carry(events: DomainEvent[], at = new Date()): Carried {
    const traceparent = currentTraceparent();
    const carried: CarriedEvent[] = events.map((event) => {
      const one: CarriedEvent = { id: event.id, type: event.type, json: JSON.stringify(event) };
      if (traceparent) one.traceparent = traceparent;
      return one;
    });
    const none = carried.length === 0;
    return {
      events: carried,
      fields: none ? {} : { outbox: carried, outboxPending: true, outboxAt: at },
      update: <U extends object>(update: U): U => {
        if (none) return update;
        const ops = update as Record<string, Record<string, unknown> | undefined>;
        return {
          ...update,
          $set: { ...ops.$set, outboxPending: true },
          $push: { ...ops.$push, outbox: { $each: carried } },
          // A document with older events still waiting keeps their time.
          $min: { ...ops.$min, outboxAt: at },
        } as U;
      },
      written: (doc: CarrierDoc) => {
        if (!none) this.outbox.stored({ carrier: this, doc: this.ref(doc), events: carried });
      },
    };
  }

  /** The fields of a document the relay needs besides its events. */
  ref(doc: CarrierDoc): CarrierRef {
    const ref: CarrierRef = { _id: doc._id, appId: doc.appId };
    for (const field of this.lock?.fields ?? []) ref[field] = (doc as unknown as Record<string, unknown>)[field];
    return ref;
  }

  /** What the sweep reads of a document. */
  projection(): Record<string, 1> {
    return Object.fromEntries(['appId', 'outbox', 'outboxAt', ...(this.lock?.fields ?? [])].map((f) => [f, 1]));
  }

  /**
   * Removes published events from their documents: each document is
   * cleared if it still carries exactly them (one conditional update; a
   * document that got more events meanwhile keeps them all for the sweep).
   */
  async clear(published: Array<{ doc: CarrierRef; events: CarriedEvent[] }>): Promise<void> {
    if (published.length === 0) return;
    const { lock } = this;
    if (lock) {
      await Promise.all(published.map(({ doc, events }) => lock.run(doc, () => this.collection.updateOne(carrying(doc, events), CLEARED))));
      return;
    }
    await this.collection.bulkWrite(
      published.map(({ doc, events }) => ({ updateOne: { filter: carrying(doc, events), update: CLEARED } })),
      { ordered: false },
    );
  }
}

/** An entry of the outbox collection an earlier release wrote (drained by the relay). */
export interface LegacyOutboxEntry {
  _id: string;
  type: string;
  event: string;
  createdAt: Date;
  n: number;
}

/**
 * A service's events wait in the documents whose change they announce,
 * until the relay has published them.
 *
 * A change and its events are one single-document write: the inserted or
 * updated document carries them (`outbox`, with `outboxPending` and
 * `outboxAt`), so a process that dies right after the write has stored
 * both or neither; there is no second write to lose. The writing process
 * then hands them to the relay (`written()`), which publishes them at once
 * and removes them from the document in a batched, conditional update
 * nobody waits for. A sweep in every replica finds documents whose events
 * were left behind (NATS down, a process that died) by an indexed equality
 * on `outboxPending`. Ids are derived from the change, so a retried
 * request or a second publish of the same event is stored once by
 * JetStream (Nats-Msg-Id) and consumers are idempotent beyond that.
 */
export class Outbox {
  private readonly carriers = new Map<string, OutboxCarrier>();
  private readonly listeners: Array<(stored: StoredEvents) => void> = [];

  constructor(readonly db: Connection) {}

  /**
   * The carrier of a collection (its schema must have `carriesEvents`).
   * One per collection and Outbox: a second call returns the first, lock
   * included.
   */
  carrier<T>(model: Model<T>, options: { lock?: CarrierLock } = {}): OutboxCarrier {
    if (!model.schema.path('outboxPending')) throw new Error(`${model.modelName} cannot carry events: its schema lacks carriesEvents()`);
    const name = model.collection.collectionName;
    let carrier = this.carriers.get(name);
    if (!carrier) {
      carrier = new OutboxCarrier(model as unknown as Model<never>, this, options.lock);
      this.carriers.set(name, carrier);
    }
    return carrier;
  }

  all(): OutboxCarrier[] {
    return [...this.carriers.values()];
  }

  /** The relay listens, so that new events go out at once instead of at the next sweep. */
  onStored(listener: (stored: StoredEvents) => void): void {
    this.listeners.push(listener);
  }

  stored(stored: StoredEvents): void {
    for (const listener of this.listeners) listener(stored);
  }

  /** Every event still waiting in this service's documents, with where it waits (tests, diagnosis). */
  async pending(): Promise<Array<CarriedEvent & { collection: string; docId: string }>> {
    const found: Array<CarriedEvent & { collection: string; docId: string }> = [];
    for (const carrier of this.carriers.values()) {
      const docs = await carrier.collection.find({ outboxPending: true }, { projection: { outbox: 1 } }).toArray();
      for (const doc of docs) {
        for (const event of (doc.outbox ?? []) as CarriedEvent[]) found.push({ ...event, collection: carrier.name, docId: String(doc._id) });
      }
    }
    return found;
  }

  /**
   * The collection where releases before this design kept their events:
   * the relay publishes and deletes whatever an upgrade left there.
   */
  legacy() {
    return this.db.collection<LegacyOutboxEntry>('outbox');
  }
}
