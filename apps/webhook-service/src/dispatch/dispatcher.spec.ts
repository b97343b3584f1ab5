import { Webhook } from 'standardwebhooks';
import { domainEvent, type DomainEvent, type Outbox } from '@ris/events';
import { createLogger } from '@ris/logging';
import { EnvelopeCipher, newKeyringEntry, parseKeyring } from '@ris/secrets';
import { WebhookReceiver, secretTraces, uniqueName } from '@ris/testing';
import { Deliveries } from '../deliveries/deliveries';
import { DeliveryQueue } from './delivery-queue';
import { Dispatcher, type DispatcherOptions } from './dispatcher';
import { EndpointHealth } from '../endpoints/endpoint-health';
import { Endpoints } from '../endpoints/endpoints';
import { generateSecret } from '../signing/signing';
import type { Resolver } from '../targets/url-guard';
import { webhookStores, type WebhookStores } from '../testing/webhook-stores';
import { fanOutToWebhooks } from '../events/webhook-fanout';

// The dispatcher against real FerretDB/MongoDB and a real HTTP receiver:
// retries, failure, disabling, a hanging receiver, a stop mid-flight and
// the address check at delivery time.
describe('dispatcher', () => {
  const logger = createLogger('webhook-dispatcher-test', 'silent');
  const [TEST_KEY, OLD_KEY] = [newKeyringEntry('test'), newKeyringEntry('old')];
  const cipher = new EnvelopeCipher(parseKeyring(TEST_KEY));
  let db: WebhookStores['db'];
  let stores: WebhookStores;
  let receiver: WebhookReceiver;
  let endpoints: Endpoints;
  let deliveries: Deliveries;
  let outbox: Outbox;
  const running: Dispatcher[] = [];

  const options = (overrides: Partial<DispatcherOptions> = {}): DispatcherOptions => ({
    schedule: [0.2, 0.2, 0.2],
    timeoutMs: 3000,
    maxInFlight: 16,
    maxInFlightPerEndpoint: 2,
    pollIntervalMs: 50,
    allowPrivateTargets: true,
    stopGraceMs: 100,
    ...overrides,
  });

  function dispatcher(overrides: Partial<DispatcherOptions> = {}, disableAfterMs = 3_600_000, using: Endpoints = endpoints): Dispatcher {
    const health = new EndpointHealth(stores.endpoints, logger, disableAfterMs);
    const d = new Dispatcher(new DeliveryQueue(stores.deliveries, stores.attempts), using, health, logger, options(overrides));
    running.push(d);
    d.start();
    return d;
  }

  const publish = (appId: string, type = 'referral.created', data: Record<string, unknown> = { referralId: uniqueName('ref') }) => {
    const event = domainEvent(type, appId, data);
    // The dispatcher running now takes the new deliveries, as the one of the fan-out's process does.
    return fanOutToWebhooks(endpoints, deliveries, running.at(-1)!)(event).then(() => event);
  };

  /** The fan-out of this process for one event: sent before it is stored, within `windowMs`, unless `redelivered`. */
  const fanOut = (event: DomainEvent, windowMs?: number, redelivered = false) =>
    fanOutToWebhooks(endpoints, deliveries, running.at(-1)!, windowMs)(event, { redelivered });

  const until = async (condition: () => Promise<boolean>, timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error('condition not met in time');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  const deliveryOf = async (appId: string, endpointId: string) => (await deliveries.list(appId, endpointId, { page: 1, limit: 100 })).items;

  beforeAll(async () => {
    stores = await webhookStores('webhook_dispatcher');
    ({ db, outbox } = stores);
    receiver = await WebhookReceiver.start();
    endpoints = new Endpoints(stores.endpoints, { allowPrivateTargets: true }, cipher);
    deliveries = new Deliveries(stores.deliveries, stores.attempts);
  });

  afterEach(async () => {
    await Promise.all(running.splice(0).map((d) => d.stop()));
  });

  afterAll(async () => {
    await receiver.close();
    await db.drop();
  });

  it('delivers a signed body once and records the attempt', async () => {
    const appId = uniqueName('app');
    const { endpoint, secret } = await endpoints.create(appId, { url: receiver.url('/ok'), events: [] });
    dispatcher();
    const event = await publish(appId, 'referral.created', { referralId: 'ref_1', riskScore: null, warning: null });
    const [request] = await receiver.waitFor((r) => r.path === '/ok');
    const body = new Webhook(secret).verify(request.body, request.headers);
    expect(body).toEqual({
      id: `msg_${event.id.replace(/-/g, '')}`,
      event: 'REFERRAL_CREATED',
      createdAt: event.occurredAt,
      data: { referralId: 'ref_1', riskScore: null, warning: null },
    });
    await until(async () => (await deliveryOf(appId, endpoint._id))[0]?.status === 'SUCCEEDED');
    const [delivery] = await deliveryOf(appId, endpoint._id);
    expect(delivery).toMatchObject({ attempts: 1, lastResponseStatus: 200, lastError: null, nextAttemptAt: null });
    expect(await deliveries.attemptLog(delivery)).toEqual([
      expect.objectContaining({ number: 1, responseStatus: 200, error: null, responseBody: 'ok', responseBodyTruncated: false }),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received('/ok')).toHaveLength(1);
  });

  it('stores a delivery sent before it was stored with its first attempt inside it, in the insert, with no update and no log row', async () => {
    const appId = uniqueName('app');
    const { endpoint } = await endpoints.create(appId, { url: receiver.url('/first'), events: [] });
    const [succeeded, updated, logged] = [
      jest.spyOn(stores.deliveries, 'recordSucceeded'),
      jest.spyOn(stores.deliveries, 'recordAttempt'),
      jest.spyOn(stores.attempts, 'log'),
    ];
    try {
      dispatcher();
      // The fan-out's promise (the event's acknowledgement) settles once the delivery is stored: here with its outcome.
      await fanOut(domainEvent('referral.created', appId, { referralId: 'ref_first' }));
      expect(receiver.received('/first')).toHaveLength(1);
      const [delivery] = await deliveryOf(appId, endpoint._id);
      expect(delivery).toMatchObject({ status: 'SUCCEEDED', attempts: 1, lastResponseStatus: 200, lease: null, nextAttemptAt: null });
      expect(delivery.completedAt).toBeInstanceOf(Date);
      expect(await deliveries.attemptLog(delivery)).toEqual([expect.objectContaining({ number: 1, responseStatus: 200, deliveryId: delivery._id })]);
      expect(delivery.firstAttempt).toMatchObject({ _id: expect.stringMatching(/^wha_/), responseStatus: 200, error: null });
      expect(succeeded).not.toHaveBeenCalled();
      expect(updated).not.toHaveBeenCalled();
      expect(logged).not.toHaveBeenCalled();
    } finally {
      succeeded.mockRestore();
      updated.mockRestore();
      logged.mockRestore();
    }
  });

  it('stores a first attempt that failed with the delivery, due for its retry, which then goes by update', async () => {
    const appId = uniqueName('app');
    let calls = 0;
    receiver.respond('/first-fails', () => ({ status: (calls += 1) === 1 ? 503 : 200 }));
    const { endpoint } = await endpoints.create(appId, { url: receiver.url('/first-fails'), events: [] });
    dispatcher();
    await fanOut(domainEvent('referral.created', appId, { referralId: 'ref_retry' }));
    const [stored] = await deliveryOf(appId, endpoint._id);
    expect(stored).toMatchObject({ status: 'PENDING', attempts: 1, retryIndex: 1, lastResponseStatus: 503, lease: null });
    expect(stored.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now() - 1000);
    await until(async () => (await deliveryOf(appId, endpoint._id))[0]?.status === 'SUCCEEDED');
    const [delivery] = await deliveryOf(appId, endpoint._id);
    expect(delivery.attempts).toBe(2);
    expect((await deliveries.attemptLog(delivery)).map((a) => [a.number, a.responseStatus])).toEqual([
      [1, 503],
      [2, 200],
    ]);
  });

  it('stores a delivery still in flight when the window closes under its lease, and records its outcome when it ends', async () => {
    const appId = uniqueName('app');
    receiver.respond('/late', () => ({ status: 200, delayMs: 800 }));
    const { endpoint } = await endpoints.create(appId, { url: receiver.url('/late'), events: [] });
    dispatcher();
    const started = Date.now();
    await fanOut(domainEvent('referral.created', appId, { referralId: 'ref_late' }), 150);
    expect(Date.now() - started).toBeLessThan(700);
    const [waiting] = await deliveryOf(appId, endpoint._id);
    expect(waiting).toMatchObject({ status: 'PENDING', attempts: 0, lease: expect.any(String) });
    await until(async () => (await deliveryOf(appId, endpoint._id))[0]?.status === 'SUCCEEDED');
    const [delivery] = await deliveryOf(appId, endpoint._id);
    expect(delivery).toMatchObject({ attempts: 1, lease: null });
    expect(await deliveries.attemptLog(delivery)).toHaveLength(1);
    expect(receiver.received('/late')).toHaveLength(1);
  });

  it("stores a slow receiver's new deliveries first, so they never hold an event's acknowledgement for the window", async () => {
    const appId = uniqueName('app');
    receiver.respond('/sluggish', () => ({ status: 200, delayMs: 1500 }));
    const { endpoint } = await endpoints.create(appId, { url: receiver.url('/sluggish'), events: [] });
    dispatcher();
    // The first waits for the window (its attempt is still running when it closes)…
    const first = fanOut(domainEvent('referral.created', appId, { referralId: 'ref_slow_1' }), 1000);
    await receiver.waitFor((r) => r.path === '/sluggish' && r.body.includes('ref_slow_1'), 1, 5000).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 400));
    // …the next, with the receiver known slow (an attempt running 400 ms), is stored at once.
    const started = Date.now();
    await fanOut(domainEvent('referral.created', appId, { referralId: 'ref_slow_2' }), 1000);
    expect(Date.now() - started).toBeLessThan(600);
    await first;
    await until(async () => (await deliveryOf(appId, endpoint._id)).filter((d) => d.status === 'SUCCEEDED').length === 2);
    expect(receiver.received('/sluggish')).toHaveLength(2);
  });

  it('sends a redelivered event only where its fan-out stores a delivery; a repeat not marked so is sent again and stored once', async () => {
    const appId = uniqueName('app');
    const { endpoint } = await endpoints.create(appId, { url: receiver.url('/again'), events: [] });
    dispatcher();
    const event = domainEvent('referral.created', appId, { referralId: 'ref_again' });
    await fanOut(event);
    await fanOut(event, undefined, true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received('/again')).toHaveLength(1);
    // The same event published twice (beyond the stream's deduplication): sent again, with the same webhook-id,
    // which receivers dedupe on; it stays one delivery with one attempt (the repeat's, inside its unstored document, is gone with it).
    await fanOut(event);
    const requests = receiver.received('/again');
    expect(requests).toHaveLength(2);
    expect(requests[1].headers['webhook-id']).toBe(requests[0].headers['webhook-id']);
    const stored = await deliveryOf(appId, endpoint._id);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ status: 'SUCCEEDED', attempts: 1 });
    expect(await deliveries.attemptLog(stored[0])).toHaveLength(1);
    const { items: all } = await deliveries.list(appId, endpoint._id, { page: 1, limit: 10 });
    expect(all).toHaveLength(1);
  });

  it('finds by its sweep a delivery whose holder died (its lease ran out) and one stored before claimable existed, and sends each once', async () => {
    const appId = uniqueName('app');
    const { endpoint } = await endpoints.create(appId, { url: receiver.url('/orphan'), events: [] });
    const [orphan, legacy] = ['ref_orphan', 'ref_legacy'].flatMap((referralId) =>
      deliveries.forEvent(appId, [endpoint], domainEvent('referral.created', appId, { referralId }), 'REFERRAL_CREATED'),
    );
    // Held by a dispatcher that died: leased, not claimable, the lease over.
    Object.assign(orphan, { lease: 'lease-of-a-dead-process', leaseUntil: new Date(Date.now() - 1000), claimable: false });
    const { claimable: _, ...withoutFlag } = legacy;
    await db.collection('webhook_deliveries').insertMany([orphan, withoutFlag] as never[]);
    dispatcher();
    await until(async () => (await deliveryOf(appId, endpoint._id)).every((d) => d.status === 'SUCCEEDED'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const bodies = receiver.received('/orphan').map((r) => r.body);
    expect(bodies).toHaveLength(2);
    expect(bodies.some((b) => b.includes('ref_orphan')) && bodies.some((b) => b.includes('ref_legacy'))).toBe(true);
    expect((await deliveryOf(appId, endpoint._id)).map((d) => ({ attempts: d.attempts, lease: d.lease, claimable: d.claimable }))).toEqual([
      { attempts: 1, lease: null, claimable: false },
      { attempts: 1, lease: null, claimable: false },
    ]);
  });

  it('retries on the schedule: two failures, then success on the third attempt', async () => {
    const appId = uniqueName('app');
    receiver.respond('/flaky', (r) => (r.n <= 2 ? { status: 500, body: 'x'.repeat(5000) } : { status: 204 }));
    const { endpoint } = await endpoints.create(appId, { url: receiver.url('/flaky'), events: [] });
    dispatcher();
    await publish(appId);
    const requests = await receiver.waitFor((r) => r.path === '/flaky', 3);
    // The message id stays; each attempt is signed with its own timestamp.
    expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(requests[1].receivedAt - requests[0].receivedAt).toBeGreaterThanOrEqual(150);
    await until(async () => (await deliveryOf(appId, endpoint._id))[0]?.status === 'SUCCEEDED');
    const [delivery] = await deliveryOf(appId, endpoint._id);
    expect(delivery.attempts).toBe(3);
    const log = await deliveries.attemptLog(delivery);
    expect(log.map((a) => a.responseStatus)).toEqual([500, 500, 204]);
    expect(log[0].responseBody).toHaveLength(2048);
    expect(log[0].responseBodyTruncated).toBe(true);
    // The success ends the failure streak (written right after the delivery's outcome).
    await until(async () => (await endpoints.get(appId, endpoint._id)).failingSince === null);
  });

  it('retries on request: a waiting delivery goes now and keeps its schedule; one in flight is left alone', async () => {
    const appId = uniqueName('app');
    receiver.respond('/later', (r) => (r.n === 1 ? { status: 500 } : { status: 200 }));
    receiver.respond('/busy', () => 'hang');
    const { endpoint: later } = await endpoints.create(appId, { url: receiver.url('/later'), events: [] });
    const { endpoint: busy } = await endpoints.create(appId, { url: receiver.url('/busy'), events: [] });
    dispatcher({ schedule: [600] });
    await publish(appId);
    await until(async () => (await deliveryOf(appId, later._id))[0]?.attempts === 1);
    const [waiting] = await deliveryOf(appId, later._id);
    expect(waiting.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now() + 60_000);

    const retried = await deliveries.retry(appId, later, waiting._id);
    expect(retried).toMatchObject({ status: 'PENDING', autoRetry: true });
    running.forEach((d) => d.nudge());
    await until(async () => (await deliveryOf(appId, later._id))[0]?.status === 'SUCCEEDED');

    await receiver.waitFor((r) => r.path === '/busy');
    const [inFlight] = await deliveryOf(appId, busy._id);
    await expect(deliveries.retry(appId, busy, inFlight._id)).rejects.toThrow(/being attempted right now/);
  });

  it('fails a delivery when the schedule is used up, and disables an endpoint failing for too long', async () => {
    const appId = uniqueName('app');
    receiver.respond('/down', () => ({ status: 503 }));
    const { endpoint } = await endpoints.create(appId, { url: receiver.url('/down'), events: [] });
    // Attempts at ~0, ~0.2 s and ~2.2 s (±20 %, so the third at 1.76 s at the earliest): only the third
    // comes after 1.5 s of failing, even when a loaded machine (the full test run) makes the second
    // wait for the next look for due deliveries; with 800 ms a second attempt 0.6 s late was the last.
    dispatcher({ schedule: [0.2, 2] }, 1500);
    await publish(appId);
    await until(async () => (await deliveryOf(appId, endpoint._id))[0]?.status === 'FAILED');
    const [delivery] = await deliveryOf(appId, endpoint._id);
    expect(delivery).toMatchObject({ attempts: 3, lastResponseStatus: 503, nextAttemptAt: null });

    // Failing for longer than 1.5 s by the third attempt: disabled, announced once.
    await until(async () => !(await endpoints.get(appId, endpoint._id)).enabled);
    const disabled = await endpoints.get(appId, endpoint._id);
    expect(disabled).toMatchObject({ enabled: false, disabledReason: 'FAILING' });
    // Stored with the disabling (no relay runs here: it waits on the endpoint).
    const announced = (await outbox.pending()).filter((e) => e.type === 'webhook.endpoint_disabled' && e.docId === endpoint._id);
    expect(announced).toHaveLength(1);
    expect(JSON.parse(announced[0].json).data).toMatchObject({ webhookId: endpoint._id, reason: 'FAILING' });

    // No new deliveries for a disabled endpoint; one queued before fails without an attempt.
    await publish(appId);
    expect(await deliveryOf(appId, endpoint._id)).toHaveLength(1);
    await deliveries.createForEvent(appId, [disabled], domainEvent('referral.created', appId, {}), 'REFERRAL_CREATED');
    await until(async () => (await deliveryOf(appId, endpoint._id)).every((d) => d.status === 'FAILED'));
    const [late] = await deliveryOf(appId, endpoint._id);
    expect(late).toMatchObject({ attempts: 0, lastError: expect.stringContaining('ENDPOINT_DISABLED') });
    expect(receiver.received('/down')).toHaveLength(3);
  });

  it('keeps delivering to other endpoints while one receiver hangs', async () => {
    const appId = uniqueName('app');
    receiver.respond('/hang', () => 'hang');
    await endpoints.create(appId, { url: receiver.url('/hang'), events: [] });
    const { endpoint: fast } = await endpoints.create(appId, { url: receiver.url('/fast'), events: [] });
    dispatcher({ maxInFlight: 6, maxInFlightPerEndpoint: 2, timeoutMs: 5000 });
    const started = Date.now();
    for (let i = 0; i < 8; i += 1) await publish(appId);
    await receiver.waitFor((r) => r.path === '/fast', 8, 4000);
    expect(Date.now() - started).toBeLessThan(4000);
    expect(receiver.peakConcurrency('/hang')).toBeLessThanOrEqual(2);
    await until(async () => (await deliveryOf(appId, fast._id)).every((d) => d.status === 'SUCCEEDED'));
  });

  it('ends an attempt at its timeout, records why, and schedules the retry', async () => {
    const appId = uniqueName('app');
    receiver.respond('/stuck', () => 'hang');
    const { endpoint } = await endpoints.create(appId, { url: receiver.url('/stuck'), events: [] });
    dispatcher({ timeoutMs: 300, schedule: [60] });
    await publish(appId);
    await until(async () => (await deliveryOf(appId, endpoint._id))[0]?.attempts === 1);
    const [delivery] = await deliveryOf(appId, endpoint._id);
    expect(delivery).toMatchObject({ status: 'PENDING', lastResponseStatus: null, lastError: 'timed out after 300 ms', lease: null, claimable: true });
    const [attempt] = await deliveries.attemptLog(delivery);
    expect(attempt).toMatchObject({ responseStatus: null, error: 'timed out after 300 ms' });
    expect(attempt.durationMs).toBeGreaterThanOrEqual(290);
    expect(attempt.durationMs).toBeLessThan(2000);
    // The retry waits for its turn on the schedule (60 s ± 20 %).
    expect(delivery.nextAttemptAt!.getTime() - Date.now()).toBeGreaterThan(40_000);
  });

  it('loses nothing and sends nothing twice across a stop and a fresh start', async () => {
    const appId = uniqueName('app');
    receiver.respond('/slow', () => ({ status: 200, delayMs: 1500 }));
    const { endpoint: slow } = await endpoints.create(appId, { url: receiver.url('/slow'), events: [] });
    const { endpoint: quick } = await endpoints.create(appId, { url: receiver.url('/quick'), events: [] });
    const first = dispatcher();
    await publish(appId);
    await receiver.waitFor((r) => r.path === '/slow');
    await until(async () => (await deliveryOf(appId, quick._id))[0]?.status === 'SUCCEEDED');
    await first.stop();

    // Cut mid-attempt: released, not counted, due at once.
    const [released] = await deliveryOf(appId, slow._id);
    expect(released).toMatchObject({ status: 'PENDING', attempts: 0, lease: null });
    expect(released.leaseUntil.getTime()).toBe(0);

    dispatcher();
    await until(async () => (await deliveryOf(appId, slow._id))[0]?.status === 'SUCCEEDED');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received('/quick')).toHaveLength(1);
    // The cut attempt may have reached the receiver: the same webhook-id lets it drop the repeat.
    const slowRequests = receiver.received('/slow');
    expect(slowRequests).toHaveLength(2);
    expect(slowRequests[0].headers['webhook-id']).toBe(slowRequests[1].headers['webhook-id']);
  });

  it("stores a busy endpoint's backlog under a lease that outlasts its wait, so draining it renews nothing", async () => {
    const appId = uniqueName('app');
    receiver.respond('/queued', () => ({ status: 200, delayMs: 400 }));
    const { endpoint } = await endpoints.create(appId, { url: receiver.url('/queued'), events: [] });
    const renewals = jest.spyOn(DeliveryQueue.prototype, 'renewLeases');
    try {
      dispatcher({ maxInFlightPerEndpoint: 1 });
      // An attempt running past 250 ms marks the receiver slow: what comes next waits in line, stored first.
      const first = fanOut(domainEvent('referral.created', appId, { referralId: 'ref_queued_0' }), 1000);
      await receiver.waitFor((r) => r.path === '/queued', 1, 5000).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const storedAt = Date.now();
      await Promise.all(Array.from({ length: 8 }, (_, i) => fanOut(domainEvent('referral.created', appId, { referralId: `ref_queued_${i + 1}` }), 1000)));
      await first;
      const waiting = (await deliveryOf(appId, endpoint._id)).filter((d) => d.status === 'PENDING' && d.attempts === 0 && d.lease !== null);
      expect(waiting.length).toBeGreaterThanOrEqual(6);
      // timeout (3 s) + margin (10 s) + a minute for the wait in line.
      for (const d of waiting) expect(d.leaseUntil.getTime() - storedAt).toBeGreaterThan(70_000);
      await until(async () => (await deliveryOf(appId, endpoint._id)).filter((d) => d.status === 'SUCCEEDED').length === 9, 15_000);
      expect(receiver.received('/queued')).toHaveLength(9);
      // 9 × 400 ms one at a time outlasts the 3 s timeout's lease (less than timeout + 5 s left after 5 s) only for those
      // stored with a short lease: the backlog's own needed no renewal.
      const renewed = renewals.mock.calls.flatMap(([claims]) => claims.map((c) => c.delivery._id));
      expect(renewed.filter((id) => waiting.some((d) => d._id === id))).toEqual([]);
    } finally {
      renewals.mockRestore();
    }
  }, 30_000);

  it('renews the leases of a backlog waiting longer than they last ahead of need, a pass for all next in line, and still sends each delivery once', async () => {
    const appId = uniqueName('app');
    // One at a time, 300 ms each: 24 deliveries take over 7 s, and with a 3 s timeout a lease
    // stored at creation needs renewing after 2 s of waiting (less than timeout + 5 s left).
    receiver.respond('/backlog', () => ({ status: 200, delayMs: 300 }));
    const { endpoint } = await endpoints.create(appId, { url: receiver.url('/backlog'), events: [] });
    const renewals = jest.spyOn(DeliveryQueue.prototype, 'renewLeases');
    try {
      dispatcher({ maxInFlightPerEndpoint: 1 });
      const started = Date.now();
      await Promise.all(Array.from({ length: 24 }, () => publish(appId)));
      const requests = await receiver.waitFor((r) => r.path === '/backlog', 24, 40_000);
      const elapsedMs = Date.now() - started;
      await until(async () => (await deliveryOf(appId, endpoint._id)).every((d) => d.status === 'SUCCEEDED'));
      expect((await deliveryOf(appId, endpoint._id)).map((d) => d.attempts)).toEqual(Array(24).fill(1));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.received('/backlog')).toHaveLength(24);
      expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(24);
      // Renewed, in a pass per ~5 s of backlog for all the waiting leases (a renewal makes them good
      // for 5 s more), not a write before each attempt (one per 300 ms here).
      expect(renewals.mock.calls.length).toBeGreaterThanOrEqual(1);
      expect(renewals.mock.calls.length).toBeLessThanOrEqual(Math.ceil(elapsedMs / 4_000) + 1);
    } finally {
      renewals.mockRestore();
    }
  }, 60_000);

  it('signs with the plain secret of an endpoint from before encryption at rest, and seals it as it delivers', async () => {
    const appId = uniqueName('app');
    const legacy = generateSecret();
    const { endpoint } = await endpoints.create(appId, { url: receiver.url('/legacy'), events: [] });
    await db.collection('webhook_endpoints').updateOne({ _id: endpoint._id as never }, { $set: { secret: legacy } });
    dispatcher();
    await publish(appId);
    const [request] = await receiver.waitFor((r) => r.path === '/legacy');
    expect(() => new Webhook(legacy).verify(request.body, request.headers)).not.toThrow();
    await until(async () => typeof (await endpoints.get(appId, endpoint._id)).secret !== 'string');
    const stored = await db.collection('webhook_endpoints').findOne({ _id: endpoint._id as never });
    expect(stored!.secret).toMatchObject({ keyId: 'test' });
    expect(secretTraces(stored, legacy)).toEqual([]);
  });

  it('a secret under a master key no longer held waits unsent and uncounted, and goes once the key is back', async () => {
    const appId = uniqueName('app');
    const underOld = new Endpoints(stores.endpoints, { allowPrivateTargets: true }, new EnvelopeCipher(parseKeyring(OLD_KEY)));
    const { endpoint, secret } = await underOld.create(appId, { url: receiver.url('/old-key'), events: [] });
    // Restarted with only the new key: the old one was removed before its secrets moved.
    dispatcher({ timeoutMs: 500 }, 3_600_000, endpoints);
    await publish(appId);
    await until(async () => (await deliveryOf(appId, endpoint._id))[0]?.lease != null);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received('/old-key')).toHaveLength(0);
    expect((await deliveryOf(appId, endpoint._id))[0]).toMatchObject({ status: 'PENDING', attempts: 0 });

    // The old key added back (after the current one): sent when the lease runs out, signed with the same secret, moved.
    await Promise.all(running.splice(0).map((d) => d.stop()));
    const bothKeys = new Endpoints(stores.endpoints, { allowPrivateTargets: true }, new EnvelopeCipher(parseKeyring(`${TEST_KEY},${OLD_KEY}`)));
    dispatcher({}, 3_600_000, bothKeys);
    const [request] = await receiver.waitFor((r) => r.path === '/old-key', 1, 20_000);
    expect(() => new Webhook(secret).verify(request.body, request.headers)).not.toThrow();
    await until(async () => (await deliveryOf(appId, endpoint._id))[0]?.status === 'SUCCEEDED');
    await until(async () => endpoints.secrets.isCurrent(await endpoints.get(appId, endpoint._id)));
    expect(endpoints.secrets.active(await endpoints.get(appId, endpoint._id))).toEqual([secret]);
  }, 30_000);

  it('checks the target again at delivery time and connects to the checked address', async () => {
    const appId = uniqueName('app');
    // Public when saved, loopback when sent: a DNS rebinding attempt.
    const answers: string[] = ['93.184.216.34'];
    const rebinding: Resolver = async () => answers.map((address) => ({ address, family: 4 as const }));
    const guarded = new Endpoints(stores.endpoints, { allowPrivateTargets: false, resolve: rebinding }, cipher);
    const { endpoint } = await guarded.create(appId, { url: `http://rebind.invalid:${receiver.port}/rebind`, events: [] });
    answers[0] = '127.0.0.1';
    dispatcher({ allowPrivateTargets: false, resolve: rebinding, schedule: [] });
    await publish(appId);
    await until(async () => (await deliveryOf(appId, endpoint._id))[0]?.status === 'FAILED');
    const [refused] = await deliveryOf(appId, endpoint._id);
    expect(refused).toMatchObject({ lastResponseStatus: null, lastError: expect.stringContaining('loopback address') });
    expect(receiver.received('/rebind')).toHaveLength(0);

    // Allowed, the connection goes to the address the resolver gave, not to what the
    // system's DNS would say (rebind.invalid does not exist).
    await Promise.all(running.splice(0).map((d) => d.stop()));
    dispatcher({ allowPrivateTargets: true, resolve: rebinding });
    await publish(appId);
    await receiver.waitFor((r) => r.path === '/rebind');
  });
});
