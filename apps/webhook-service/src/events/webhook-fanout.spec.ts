import { domainEvent } from '@ris/events';
import { EnvelopeCipher, newKeyringEntry, parseKeyring } from '@ris/secrets';
import { uniqueName } from '@ris/testing';
import { Deliveries } from '../deliveries/deliveries';
import { Endpoints } from '../endpoints/endpoints';
import type { ClaimedDelivery } from '../deliveries/delivery.repository';
import type { DeliveryIntake, ReadyDelivery } from '../dispatch/dispatcher';
import { webhookStores, type WebhookStores } from '../testing/webhook-stores';
import { fanOutToWebhooks } from './webhook-fanout';

/** A dispatcher's intake that notes what it is handed, with room for `room` leased deliveries per endpoint. */
function recordingIntake(room = Infinity) {
  const leased: ClaimedDelivery[] = [];
  const unleased: ReadyDelivery[] = [];
  const intake: DeliveryIntake = {
    room: (endpointId) => Math.max(0, room - leased.filter((c) => c.delivery.endpointId === endpointId).length),
    startsSoon: () => 0,
    newLease: () => ({ lease: `lease-${leased.length}-${unleased.length}-${Math.random()}`, leaseUntil: new Date(Date.now() + 60_000), backlogUntil: new Date(Date.now() + 120_000) }),
    takeLeased: (claims) => leased.push(...claims),
    enqueue: (deliveries) => unleased.push(...deliveries),
  };
  return { intake, leased, unleased };
}

// Domain events → deliveries, against real FerretDB/MongoDB.
describe('fan-out of domain events to webhook deliveries', () => {
  let db: WebhookStores['db'];
  let endpoints: Endpoints;
  let deliveries: Deliveries;
  let fanOut: ReturnType<typeof fanOutToWebhooks>;
  let handed: ReturnType<typeof recordingIntake>;

  beforeAll(async () => {
    const stores = await webhookStores('webhook_fanout');
    db = stores.db;
    endpoints = new Endpoints(stores.endpoints, { allowPrivateTargets: true }, new EnvelopeCipher(parseKeyring(newKeyringEntry('test'))));
    deliveries = new Deliveries(stores.deliveries, stores.attempts);
    handed = recordingIntake();
    fanOut = fanOutToWebhooks(endpoints, deliveries, handed.intake);
  });

  afterAll(async () => {
    await db.drop();
  });

  const create = (appId: string, events: string[] = []) =>
    endpoints.create(appId, { url: 'http://127.0.0.1:9/hook', events }).then((r) => r.endpoint);
  const bodiesOf = async (appId: string, endpointId: string) =>
    (await deliveries.list(appId, endpointId, { page: 1, limit: 100 })).items.map((d) => JSON.parse(d.payload));

  it('queues one delivery per subscribed, enabled endpoint of the app, once per event', async () => {
    const appId = uniqueName('app');
    const all = await create(appId);
    const rewardsOnly = await create(appId, ['REWARD_CREATED']);
    const disabled = await create(appId);
    await endpoints.update(appId, disabled._id, { enabled: false });
    const otherApp = uniqueName('app');
    const foreign = await create(otherApp);

    const event = domainEvent('referral.created', appId, { referralId: 'ref_1', riskScore: 72, warning: 'Looks like a self-referral', reasons: ['SELF_REFERRAL'] });
    await fanOut(event);
    // A redelivered event changes nothing (unique endpoint + event).
    await fanOut(event);

    const [body] = await bodiesOf(appId, all._id);
    expect(await bodiesOf(appId, all._id)).toHaveLength(1);
    expect(body).toEqual({
      id: `msg_${event.id.replace(/-/g, '')}`,
      event: 'REFERRAL_CREATED',
      createdAt: event.occurredAt,
      data: { referralId: 'ref_1', riskScore: 72, warning: 'Looks like a self-referral', reasons: ['SELF_REFERRAL'] },
    });
    expect(await bodiesOf(appId, rewardsOnly._id)).toHaveLength(0);
    expect(await bodiesOf(appId, disabled._id)).toHaveLength(0);
    expect(await bodiesOf(otherApp, foreign._id)).toHaveLength(0);
    expect(handed.leased.map((c) => c.delivery.endpointId)).toContain(all._id);
  });

  it("always carries the first events' promised fields, null when the publisher had none", async () => {
    const appId = uniqueName('app');
    const endpoint = await create(appId);
    await fanOut(domainEvent('referral.created', appId, { referralId: 'ref_2' }));
    await fanOut(domainEvent('reward.created', appId, { rewardId: 'rwd_1', referralId: 'ref_2', userId: 'alice', amount: 10 }));
    await fanOut(domainEvent('reward.claimed', appId, { rewardId: 'rwd_1', userId: 'alice' }));
    const bodies = await bodiesOf(appId, endpoint._id);
    const byEvent = Object.fromEntries(bodies.map((b) => [b.event, b.data]));
    expect(byEvent.REFERRAL_CREATED).toEqual({ referralId: 'ref_2', riskScore: null, warning: null });
    expect(byEvent.REWARD_CREATED).toEqual({ rewardId: 'rwd_1', referralId: 'ref_2', userId: 'alice', amount: 10 });
    expect(byEvent.REWARD_CLAIMED).toEqual({ rewardId: 'rwd_1', userId: 'alice', discountCode: null });
  });

  it("sends a marketplace redemption to the listing owner's app too", async () => {
    const [buyer, owner] = [uniqueName('app'), uniqueName('app')];
    const buyerEndpoint = await create(buyer);
    const ownerEndpoint = await create(owner, ['MARKETPLACE_REDEEMED']);
    await fanOut(domainEvent('marketplace.redeemed', buyer, { redemptionId: 'mkr_1', listingId: 'lst_1', listingAppId: owner, userId: 'u', discountCode: 'MKT-1' }));
    const [forBuyer] = await bodiesOf(buyer, buyerEndpoint._id);
    const [forOwner] = await bodiesOf(owner, ownerEndpoint._id);
    expect(forBuyer.event).toBe('MARKETPLACE_REDEEMED');
    expect(forOwner).toEqual(forBuyer);
  });

  it('hands the dispatcher the deliveries it stored, not those an earlier fan-out of the event made', async () => {
    const appId = uniqueName('app');
    const first = await create(appId);
    const event = domainEvent('referral.created', appId, { referralId: 'ref_3' });
    expect(await deliveries.createForEvent(appId, [first], event, 'REFERRAL_CREATED')).toEqual([{ _id: expect.any(String), endpointId: first._id }]);
    // The event again (redelivered), now with a second endpoint: only the new delivery is queued.
    const second = await create(appId);
    expect(await deliveries.createForEvent(appId, [first, second], event, 'REFERRAL_CREATED')).toEqual([{ _id: expect.any(String), endpointId: second._id }]);
    expect(await bodiesOf(appId, first._id)).toHaveLength(1);
  });

  it('ignores events that happened before the endpoint existed, and types that are not webhooks', async () => {
    const appId = uniqueName('app');
    const endpoint = await create(appId);
    await fanOut(domainEvent('referral.created', appId, {}, { occurredAt: new Date(Date.now() - 60_000) }));
    await fanOut(domainEvent('something.internal', appId, {}));
    expect(await bodiesOf(appId, endpoint._id)).toHaveLength(0);
  });

  it('fans out the events handled together with one insert, each event once, leased to the dispatcher as far as it has room', async () => {
    const appId = uniqueName('app');
    const first = await create(appId);
    const second = await create(appId);
    const intake = recordingIntake(1);
    const together = fanOutToWebhooks(endpoints, deliveries, intake.intake);
    const [a, b] = [domainEvent('referral.created', appId, { referralId: 'ref_a' }), domainEvent('referral.created', appId, { referralId: 'ref_b' })];
    // Handled side by side, as the consumer does: one batch; the same event twice (a redelivery) in it adds nothing.
    await Promise.all([together(a), together(b), together(a)]);
    const stored = [...(await deliveries.list(appId, first._id, { page: 1, limit: 10 })).items, ...(await deliveries.list(appId, second._id, { page: 1, limit: 10 })).items];
    expect(stored).toHaveLength(4);
    expect(new Set(stored.map((d) => `${d.endpointId}:${d.eventId}`)).size).toBe(4);
    // Room for one per endpoint: two leased (stored under the lease, handed over with their documents), two stored due.
    expect(intake.leased.map((c) => c.delivery.endpointId).sort()).toEqual([first._id, second._id].sort());
    expect(intake.unleased).toHaveLength(2);
    for (const claim of intake.leased) {
      const doc = stored.find((d) => d._id === claim.delivery._id)!;
      expect(doc.lease).toBe(claim.lease);
      expect(doc.leaseUntil.getTime()).toBeGreaterThan(Date.now());
    }
    for (const ready of intake.unleased) {
      expect(stored.find((d) => d._id === ready._id)).toMatchObject({ lease: null, leaseUntil: new Date(0), status: 'PENDING' });
    }
    // Redelivered later: nothing new is stored or handed over.
    await together(b);
    expect(intake.leased.length + intake.unleased.length).toBe(4);
  });
});
