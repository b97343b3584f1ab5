import { Schema, type Model } from 'mongoose';
import { connect, JSONCodec } from 'nats';
import { createLogger } from '@ris/logging';
import { privateNatsServer, testDatabase } from '@ris/testing';
import { domainEvent, stableEventId, type DomainEvent } from './domain-event';
import { EventBus } from './event-bus';
import { EventConsumer } from './event-consumer';
import { carriesEvents, Outbox, type CarrierRef, type OutboxCarrier, type OutboxFields } from './outbox';
import { OutboxRelay } from './outbox-relay';

interface ThingDoc extends OutboxFields {
  _id: string;
  appId: string;
  n: number;
}

// Real FerretDB/MongoDB and a private nats-server -js that the test stops
// and starts: events stored with a change while NATS is down are published
// once it is back, each once, in order, and leave their documents.
describe('outbox, relay and consumer against real MongoDB and NATS', () => {
  const logger = createLogger('events-test', 'silent');
  let nats: Awaited<ReturnType<typeof privateNatsServer>>;
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let bus: EventBus;
  let outbox: Outbox;
  let things: Model<ThingDoc>;
  let carrier: OutboxCarrier;
  let relay: OutboxRelay;
  let n = 0;

  beforeAll(async () => {
    nats = await privateNatsServer();
    db = await testDatabase('events');
    const schema = new Schema<ThingDoc>({ _id: String, appId: String, n: Number }, { collection: 'things', versionKey: false });
    carriesEvents(schema);
    things = db.model<ThingDoc>('Thing', schema);
    await things.init();
    outbox = new Outbox(db);
    carrier = outbox.carrier(things);
  });

  afterAll(async () => {
    await relay?.stop();
    await bus?.close();
    await nats.dispose();
    await db.drop();
  });

  async function streamEvents(): Promise<DomainEvent[]> {
    const nc = await connect({ servers: nats.url });
    try {
      const jsm = await nc.jetstreamManager();
      const info = await jsm.streams.info('TEST');
      const events: DomainEvent[] = [];
      for (let seq = 1; seq <= info.state.last_seq; seq += 1) {
        const message = await jsm.streams.getMessage('TEST', { seq });
        events.push(JSONCodec<DomainEvent>().decode(message.data));
      }
      return events;
    } finally {
      await nc.close();
    }
  }

  async function until(condition: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error('condition not met in time');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const waiting = () => things.countDocuments({ outboxPending: true }).exec();
  const thing = (events: DomainEvent[]) => ({ _id: `t${(n += 1)}`, appId: 'app_1', n, events });

  /** A new thing and its events, in one insert, handed to the relay as a service does (unless `notify` is false). */
  async function insertThing(events: DomainEvent[], notify = true): Promise<ThingDoc> {
    const { _id, appId } = thing(events);
    const carried = carrier.carry(events);
    const doc = (await things.create({ _id, appId, n, ...carried.fields })).toObject();
    if (notify) carried.written(doc as unknown as CarrierRef);
    return doc;
  }

  /** A change of a thing and its events, in one update. */
  async function changeThing(doc: Pick<ThingDoc, '_id' | 'appId'>, events: DomainEvent[], notify = true): Promise<void> {
    const carried = carrier.carry(events);
    await things.updateOne({ _id: doc._id, appId: doc.appId }, carried.update({ $inc: { n: 1 } })).exec();
    if (notify) carried.written(doc as CarrierRef);
  }

  it('keeps events stored while NATS is down and publishes each once, in order, when it is back', async () => {
    bus = new EventBus({ url: nats.url, stream: 'TEST', subjectPrefix: 'test', name: 'events-test', logger });
    relay = new OutboxRelay(outbox, bus, logger, { sweepIntervalMs: 100, sweepAfterMs: 200 });
    relay.start();

    const first = domainEvent('thing.created', 'app_1', { n: 1 }, { id: stableEventId('thing', '1') });
    const created = await insertThing([first]);
    expect(await outbox.pending()).toEqual([expect.objectContaining({ id: first.id, type: 'thing.created', collection: 'things', docId: created._id })]);

    await nats.start();
    await until(async () => (await waiting()) === 0);
    expect((await streamEvents()).map((e) => e.id)).toEqual([first.id]);
    // Cleared: the document is as it would be without events.
    expect(await things.findById(created._id).lean().exec()).toEqual({ _id: created._id, appId: 'app_1', n: created.n });

    await nats.stop();
    const later = [domainEvent('thing.created', 'app_1', { n: 2 }), domainEvent('thing.updated', 'app_1', { n: 3 })];
    const other = await insertThing(later);
    // Changed again before its first events went out: both changes' events wait, in order.
    const again = domainEvent('thing.updated', 'app_1', { n: 4 });
    await changeThing(other, [again]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await outbox.pending()).map((e) => e.id)).toEqual([...later, again].map((e) => e.id));

    await nats.start();
    await until(async () => (await waiting()) === 0);
    expect((await streamEvents()).map((e) => e.id)).toEqual([first.id, ...later.map((e) => e.id), again.id]);
    expect(await things.findById(other._id).lean().exec()).toEqual({ _id: other._id, appId: 'app_1', n: other.n + 1 });
  }, 60_000);

  it("publishes a process's own new events at once, in order, and sweeps up those another process left", async () => {
    // A relay whose sweep would not come round during this test.
    await relay.stop();
    const quick = new OutboxRelay(outbox, bus, logger, { sweepIntervalMs: 60_000, sweepAfterMs: 0 });
    quick.start();
    await until(async () => (await waiting()) === 0);
    const before = (await streamEvents()).length;

    const fresh = Array.from({ length: 30 }, (_, i) => domainEvent('thing.fresh', 'app_1', { i }));
    // Ten changes of three events each (a batch's events on one document, as clicks do, and changes of their own).
    for (let i = 0; i < 10; i += 1) await insertThing(fresh.slice(i * 3, i * 3 + 3));
    await until(async () => (await waiting()) === 0, 3000);
    expect((await streamEvents()).slice(before).map((e) => e.id)).toEqual(fresh.map((e) => e.id));

    // Stored by a process that died before publishing them (never handed to this relay).
    const orphan = domainEvent('thing.orphaned', 'app_1', { n: 1 });
    const left = thing([orphan]);
    await things.create({ _id: left._id, appId: left.appId, n: left.n, ...carrier.carry([orphan], new Date(Date.now() - 60_000)).fields });
    expect(await quick.sweep()).toBe(1);
    expect(await waiting()).toBe(0);
    expect((await streamEvents()).map((e) => e.id)).toContain(orphan.id);
    await quick.stop();
  }, 60_000);

  it('leaves events to their writer for a moment, then sweeps them', async () => {
    const patient = new OutboxRelay(outbox, bus, logger, { sweepIntervalMs: 60_000, sweepAfterMs: 1500 });
    // Not started: nothing it is told about is published by it; only its sweep works.
    const event = domainEvent('thing.slow', 'app_1', { n: 1 });
    await insertThing([event]);
    expect(await patient.sweep()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    expect(await patient.sweep()).toBe(1);
    expect(await waiting()).toBe(0);
  }, 30_000);

  it('never clears events it did not publish: a change stored between the publish and the clean-up waits for the sweep', async () => {
    const a = domainEvent('thing.a', 'app_1', { n: 1 });
    const b = domainEvent('thing.b', 'app_1', { n: 2 });
    const doc = await insertThing([a]);
    // Not handed to a relay: b arrives while a is (say) being published.
    await changeThing(doc, [b], false);
    await carrier.clear([{ doc: doc as unknown as CarrierRef, events: carrier.carry([a]).events }]);
    expect((await outbox.pending()).map((e) => e.id)).toEqual([a.id, b.id]);
    const sweeper = new OutboxRelay(outbox, bus, logger, { sweepAfterMs: 0 });
    expect(await sweeper.sweep()).toBe(2);
    expect(await waiting()).toBe(0);
    const ids = (await streamEvents()).map((e) => e.id);
    expect(ids.indexOf(a.id)).toBeLessThan(ids.indexOf(b.id));
  }, 30_000);

  it('clears a document of many events by a few conditions, and never one that now carries as many other events', async () => {
    const many = Array.from({ length: 300 }, (_, i) => domainEvent('thing.a', 'app_1', { n: i }));
    const others = Array.from({ length: 300 }, (_, i) => domainEvent('thing.b', 'app_1', { n: i }));
    const { _id, appId } = await insertThing(many, false);
    const outboxOf = async () => ((await things.findOne({ _id }).lean().exec()) as { outbox?: unknown[] } | null)?.outbox;
    // Published and swept meanwhile, then as many other events carried by a later change.
    await things.updateOne({ _id }, { $unset: { outbox: '', outboxPending: '', outboxAt: '' } }).exec();
    await changeThing({ _id, appId }, others, false);
    await carrier.clear([{ doc: { _id, appId }, events: carrier.carry(many).events }]);
    expect(await outboxOf()).toHaveLength(300);
    await carrier.clear([{ doc: { _id, appId }, events: carrier.carry(others).events }]);
    expect(await outboxOf()).toBeUndefined();
  }, 30_000);

  it('clears a flag left without events, so the sweep does not meet it again', async () => {
    const old = new Date(Date.now() - 60_000);
    await things.collection.insertMany([
      { _id: 'bare1', appId: 'app_1', n: 0, outboxPending: true, outboxAt: old },
      { _id: 'bare2', appId: 'app_1', n: 0, outbox: [], outboxPending: true, outboxAt: old },
    ] as never[]);
    const sweeper = new OutboxRelay(outbox, bus, logger);
    expect(await sweeper.sweep()).toBe(0);
    expect(await waiting()).toBe(0);
  }, 30_000);

  it('clears a document under the lock its other writes take', async () => {
    const lockedSchema = new Schema<ThingDoc>({ _id: String, appId: String, n: Number }, { collection: 'locked_things', versionKey: false });
    carriesEvents(lockedSchema);
    const locked = db.model<ThingDoc>('LockedThing', lockedSchema);
    await locked.init();
    const runs: CarrierRef[] = [];
    const lockedCarrier = outbox.carrier(locked, {
      lock: {
        fields: ['n'],
        run: async (doc, work) => {
          runs.push(doc);
          return work();
        },
      },
    });
    const event = domainEvent('thing.locked', 'app_1', { n: 1 });
    const carried = lockedCarrier.carry([event], new Date(Date.now() - 60_000));
    await locked.create({ _id: 'l1', appId: 'app_1', n: 7, ...carried.fields });
    const sweeper = new OutboxRelay(outbox, bus, logger);
    expect(await sweeper.sweep()).toBe(1);
    expect(runs).toEqual([{ _id: 'l1', appId: 'app_1', n: 7 }]);
    expect(await locked.countDocuments({ outboxPending: true })).toBe(0);
  }, 30_000);

  it('finds waiting documents through an index, not by reading the collection', async () => {
    await things.collection.insertMany(Array.from({ length: 2000 }, (_, i) => ({ _id: `bulk${i}`, appId: 'app_1', n: i })) as never[]);
    const explained = await db.db!.command({ explain: { find: 'things', filter: { outboxPending: true }, sort: { outboxAt: 1 }, limit: 200 } });
    // PostgreSQL (FerretDB) "Index Scan"/"Bitmap Index Scan"; MongoDB IXSCAN.
    expect(JSON.stringify(explained.queryPlanner)).toMatch(/Index Scan|IXSCAN/);
  }, 30_000);

  it('publishes and deletes what an earlier release left in its outbox collection', async () => {
    const old = domainEvent('thing.legacy', 'app_1', { n: 1 });
    await outbox.legacy().insertOne({ _id: old.id, type: old.type, event: JSON.stringify(old), createdAt: new Date(), n: 0 });
    const sweeper = new OutboxRelay(outbox, bus, logger);
    expect(await sweeper.sweep()).toBe(1);
    expect(await outbox.legacy().countDocuments({})).toBe(0);
    expect((await streamEvents()).map((e) => e.id)).toContain(old.id);
  }, 30_000);

  it('hands each event to a durable consumer once, even when it is on the stream twice', async () => {
    const handled: string[] = [];
    const consumer = new EventConsumer({
      bus,
      durable: 'test-consumer',
      types: ['thing.created'],
      connection: db,
      logger,
      handle: async (event) => {
        handled.push(event.id);
      },
    });
    consumer.start();
    await until(async () => handled.length >= 2);

    // The same event published again without a message id bypasses
    // JetStream's duplicate window: the consumer must still handle it once.
    const { js } = await bus.jetstream();
    const duplicate = (await streamEvents())[0];
    await js.publish('test.thing.created', JSONCodec<DomainEvent>().encode(duplicate));
    const fresh = domainEvent('thing.created', 'app_1', { n: 4 });
    await js.publish('test.thing.created', JSONCodec<DomainEvent>().encode(fresh));
    await until(async () => handled.includes(fresh.id));
    await consumer.stop();

    const all = (await streamEvents()).filter((e) => e.type === 'thing.created').map((e) => e.id);
    expect(new Set(all).size).toBe(3);
    expect(handled).toEqual([...new Set(all)]);
  }, 60_000);

  it('runs an idempotent handler again for a redelivered event, recording nothing', async () => {
    const handled: string[] = [];
    const consumer = new EventConsumer({
      bus,
      durable: 'test-idempotent',
      types: ['thing.keyed'],
      connection: db,
      logger,
      idempotentHandler: true,
      handle: async (event) => {
        handled.push(event.id);
      },
    });
    consumer.start();
    const { js } = await bus.jetstream();
    const event = domainEvent('thing.keyed', 'app_1', { n: 1 });
    // Twice, without a message id: the second is a redelivery to the consumer.
    await js.publish('test.thing.keyed', JSONCodec<DomainEvent>().encode(event));
    await js.publish('test.thing.keyed', JSONCodec<DomainEvent>().encode(event));
    await until(async () => handled.length === 2);
    await consumer.stop();
    expect(handled).toEqual([event.id, event.id]);
    expect(await db.collection('processed_events').countDocuments({ consumer: 'test-idempotent' })).toBe(0);
  }, 60_000);

  it('handles events side by side when asked to, each once and each acknowledged', async () => {
    const handled: string[] = [];
    let open = 0;
    let peak = 0;
    const consumer = new EventConsumer({
      bus,
      durable: 'test-concurrent',
      types: ['thing.parallel'],
      connection: db,
      logger,
      concurrency: 4,
      handle: async (event) => {
        open += 1;
        peak = Math.max(peak, open);
        await new Promise((resolve) => setTimeout(resolve, 100));
        open -= 1;
        handled.push(event.id);
      },
    });
    consumer.start();
    const { js, jsm } = await bus.jetstream();
    const events = Array.from({ length: 8 }, (_, n) => domainEvent('thing.parallel', 'app_1', { n }));
    for (const event of events) await js.publish('test.thing.parallel', JSONCodec<DomainEvent>().encode(event), { msgID: event.id });
    await until(async () => handled.length === 8);
    expect(new Set(handled)).toEqual(new Set(events.map((e) => e.id)));
    expect(peak).toBeGreaterThan(1);
    expect(peak).toBeLessThanOrEqual(4);
    await until(async () => (await jsm.consumers.info('TEST', 'test-concurrent')).num_ack_pending === 0);
    await consumer.stop();
  }, 60_000);
});
