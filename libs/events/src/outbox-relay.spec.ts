import { connect, JSONCodec } from 'nats';
import { createLogger } from '@ris/logging';
import { privateNatsServer, testDatabase } from '@ris/testing';
import { domainEvent, stableEventId, type DomainEvent } from './domain-event';
import { EventBus } from './event-bus';
import { EventConsumer } from './event-consumer';
import { Outbox } from './outbox';
import { OutboxRelay } from './outbox-relay';

// Real FerretDB/MongoDB and a private nats-server -js that the test stops
// and starts: events written while NATS is down are published once it is back.
describe('outbox, relay and consumer against real MongoDB and NATS', () => {
  const logger = createLogger('events-test', 'silent');
  let nats: Awaited<ReturnType<typeof privateNatsServer>>;
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let bus: EventBus;
  let outbox: Outbox;
  let relay: OutboxRelay;

  beforeAll(async () => {
    nats = await privateNatsServer();
    db = await testDatabase('events');
    outbox = new Outbox(db);
    await outbox.model.init();
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

  it('keeps events written while NATS is down and publishes each once when it is back', async () => {
    bus = new EventBus({ url: nats.url, stream: 'TEST', subjectPrefix: 'test', name: 'events-test', logger });
    relay = new OutboxRelay(outbox, bus, logger, { sweepIntervalMs: 100, sweepAfterMs: 200 });
    relay.start();

    const first = domainEvent('thing.created', 'app_1', { n: 1 }, { id: stableEventId('thing', '1') });
    await outbox.add(first);
    // Adding the same change again (a retried request) stores it once.
    await outbox.add(first);
    expect(await outbox.model.countDocuments({})).toBe(1);

    await nats.start();
    await until(async () => (await outbox.model.countDocuments({})) === 0);
    expect((await streamEvents()).map((e) => e.id)).toEqual([first.id]);

    await nats.stop();
    const later = [domainEvent('thing.created', 'app_1', { n: 2 }), domainEvent('thing.updated', 'app_1', { n: 3 })];
    await outbox.add(later);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await outbox.model.countDocuments({})).toBe(2);

    await nats.start();
    await until(async () => (await outbox.model.countDocuments({})) === 0);
    const ids = (await streamEvents()).map((e) => e.id);
    expect(ids).toEqual([first.id, later[0].id, later[1].id]);
  }, 60_000);

  it("publishes a process's own new events at once, and sweeps up those another process left", async () => {
    // A relay whose sweep would not come round during this test.
    await relay.stop();
    const quick = new OutboxRelay(outbox, bus, logger, { sweepIntervalMs: 60_000, sweepAfterMs: 0 });
    quick.start();
    await until(async () => (await outbox.model.countDocuments({})) === 0);
    const before = (await streamEvents()).length;

    const fresh = Array.from({ length: 30 }, (_, n) => domainEvent('thing.fresh', 'app_1', { n }));
    await outbox.add(fresh);
    await until(async () => (await outbox.model.countDocuments({})) === 0, 3000);
    expect((await streamEvents()).slice(before).map((e) => e.id)).toEqual(fresh.map((e) => e.id));

    // Entries stored by a process that died before publishing them.
    const orphan = domainEvent('thing.orphaned', 'app_1', { n: 1 });
    await outbox.model.collection.insertOne({
      _id: orphan.id,
      type: orphan.type,
      appId: orphan.appId,
      event: JSON.stringify(orphan),
      createdAt: new Date(Date.now() - 60_000),
      batch: 'obx_from_a_dead_process',
      n: 0,
    } as never);
    expect(await quick.sweep()).toBe(1);
    expect(await outbox.model.countDocuments({})).toBe(0);
    expect((await streamEvents()).map((e) => e.id)).toContain(orphan.id);
    await quick.stop();
  }, 60_000);

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
