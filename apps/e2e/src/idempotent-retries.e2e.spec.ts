import mongoose, { type Connection } from 'mongoose';
import { WebhookReceiver, createTestApp, e2eStack, type ApiResponse, type TestApp } from '@ris/testing';
import { balanceMatchingLedger } from './support/coin-balances';

// Every POST that creates something or moves value, when the caller never
// learnt how its first try ended (a 503, a timeout, a dropped connection):
// the gateway keeps the key as retryable, and the retry runs again under the
// same operation key. Here the first answer is "lost" the way a 5xx leaves
// it (the gateway's record set back to retryable in its own database), and
// the retry must be the same operation, answered as the first was: the
// same ids, secrets and codes, and no second effect.
describe('a retry with the Idempotency-Key of a request whose answer was lost', () => {
  let app: TestApp;
  let gatewayDb: Connection;
  let receiver: WebhookReceiver;
  let n = 0;
  const key = () => `lost-${Date.now().toString(36)}-${(n += 1)}`;

  beforeAll(async () => {
    app = await createTestApp('lost answers');
    const stack = e2eStack();
    gatewayDb = await mongoose.createConnection(stack.mongodbUrl, { dbName: `${stack.dbPrefix}gateway` }).asPromise();
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await gatewayDb.close();
    await receiver.close();
  });

  /** The first try and, after its answer was lost, the retry: a real run again, not a replay. */
  async function twice(path: string, body?: unknown): Promise<[ApiResponse, ApiResponse]> {
    const headers = { 'idempotency-key': key() };
    const first = await app.api.post(path, body, headers);
    const lost = await gatewayDb
      .collection('idempotency_keys')
      .updateOne({ _id: `${app.appId}:${headers['idempotency-key']}` as never }, { $set: { state: 'retryable' }, $unset: { sealedBody: 1, status: 1 } });
    expect(lost.modifiedCount).toBe(1);
    const retry = await app.api.post(path, body, headers);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect([path, retry.status]).toEqual([path, first.status]);
    return [first, retry];
  }

  const count = async (path: string) => (await app.api.get(path)).body.pagination.totalItems as number;

  it('referral side: a campaign, a referral, a click, a conversion, a claim, a redeem and a flag resolution, once each', async () => {
    const [campaign, campaignAgain] = await twice('/campaigns', { name: 'Once', referrerReward: { amount: 10, fulfillmentType: 'DISCOUNT_CODE' } });
    expect([campaign.status, campaignAgain.body.campaign.id]).toEqual([201, campaign.body.campaign.id]);
    expect(await count('/campaigns?limit=100')).toBe(1);
    const campaignId = campaign.body.campaign.id as string;

    const [referral, referralAgain] = await twice('/referrals', { campaignId, referrerId: 'ann' });
    expect([referral.status, referralAgain.body.referralId]).toEqual([201, referral.body.referralId]);
    const code = referral.body.referralCode as string;

    const [click, clickAgain] = await twice('/clicks', { referralCode: code });
    expect(clickAgain.body.clickId).toBe(click.body.clickId);
    expect((await app.api.get(`/stats?campaignId=${campaignId}`)).body.totalClicks).toBe(1);

    const [conversion, conversionAgain] = await twice('/conversions', { referralCode: code, refereeId: 'bob', amount: 30 });
    expect([conversion.status, conversionAgain.body.conversionId]).toEqual([201, conversion.body.conversionId]);
    expect(conversionAgain.body.rewards).toEqual(conversion.body.rewards);
    expect(await count(`/conversions?referralCode=${code}`)).toBe(1);
    const rewardId = conversion.body.rewards[0].rewardId as string;

    const [claim, claimAgain] = await twice(`/rewards/${rewardId}/claim`);
    expect([claim.status, claimAgain.body.discountCode]).toEqual([200, claim.body.discountCode]);

    const [redeem, redeemAgain] = await twice('/rewards/redeem', { rewardId, userId: 'ann' });
    expect([redeem.status, redeemAgain.body.reward.status]).toEqual([200, 'PAID']);
    expect((await app.api.get(`/users/ann/stats?campaignId=${campaignId}`)).body.rewardsEarned).toBe(10);

    // A self-referral is flagged; resolving it is answered again, not refused as already resolved.
    const self = await app.api.post('/referrals', { campaignId, referrerId: 'cat' });
    await app.api.post('/conversions', { referralCode: self.body.referralCode, refereeId: 'cat' });
    const flag = (await app.api.get('/fraud/flags?status=OPEN')).body.flags.find((f: { refereeId: string }) => f.refereeId === 'cat');
    const [resolve, resolveAgain] = await twice(`/fraud/flags/${flag.id}/resolve`, { decision: 'REJECT', note: 'self' });
    expect([resolve.status, resolveAgain.body.flag.status]).toEqual([200, 'REJECTED']);
  });

  it('incentive side: definitions, a manual award, events, a bulk, an item, a listing and both redemptions, once each', async () => {
    const [action, actionAgain] = await twice('/incentives/actions', { key: 'once', name: 'Once', type: 'STANDARD', coins: 40 });
    expect([action.status, actionAgain.body.action.key]).toEqual([201, 'once']);
    const [badge] = await twice('/incentives/badges', { key: 'once-badge', name: 'Once' });
    expect(badge.status).toBe(201);
    const [level, levelAgain] = await twice('/incentives/levels', { level: 2, name: 'Two', xpThreshold: 100 });
    expect([level.status, levelAgain.body.level.level]).toEqual([201, 2]);
    const [milestone] = await twice('/incentives/milestones/definitions', { key: 'once-ms', name: 'Once', metric: 'EVENTS', threshold: 100 });
    expect(milestone.status).toBe(201);
    const [award, awardAgain] = await twice('/incentives/badges/once-badge/award', { userId: 'dan' });
    expect([award.status, awardAgain.body.awarded]).toEqual([201, true]);

    const [event, eventAgain] = await twice('/incentives/events', { userId: 'eve', actionKey: 'once' });
    expect([event.status, eventAgain.body.event.id, eventAgain.body.duplicate]).toEqual([201, event.body.event.id, false]);
    const [bulk, bulkAgain] = await twice('/incentives/events/bulk', { events: [{ userId: 'eve', actionKey: 'once' }, { userId: 'fay', actionKey: 'once' }] });
    expect(bulkAgain.body.results.map((r: { event: { id: string } }) => r.event.id)).toEqual(bulk.body.results.map((r: { event: { id: string } }) => r.event.id));
    expect(await balanceMatchingLedger(app, 'eve')).toMatchObject({ coins: 80, matches: true });
    expect(await balanceMatchingLedger(app, 'fay')).toMatchObject({ coins: 40, matches: true });

    const [item, itemAgain] = await twice('/incentives/catalog', { name: 'Mug', coinCost: 10, inventory: 5, published: true });
    expect(itemAgain.body.item.id).toBe(item.body.item.id);
    expect(await count('/incentives/catalog')).toBe(1);
    const [listing, listingAgain] = await twice('/incentives/marketplace/listings', {
      title: 'Tea',
      coinCost: 10,
      quantity: 5,
      discount: { type: 'PERCENT', value: 10 },
      published: true,
    });
    expect(listingAgain.body.listing.id).toBe(listing.body.listing.id);

    const [redemption, redemptionAgain] = await twice('/incentives/redeem', { userId: 'fay', itemId: item.body.item.id });
    expect([redemption.status, redemptionAgain.body.redemption.id]).toEqual([201, redemption.body.redemption.id]);
    const [market, marketAgain] = await twice('/incentives/marketplace/redeem', { userId: 'fay', listingId: listing.body.listing.id });
    expect([market.status, marketAgain.body.redemption.discountCode]).toEqual([201, market.body.redemption.discountCode]);
    expect(await balanceMatchingLedger(app, 'fay')).toMatchObject({ coins: 20, matches: true });
    expect((await app.api.get(`/incentives/catalog/${item.body.item.id}`)).body.item.inventory).toBe(4);
    expect((await app.api.get(`/incentives/marketplace/listings/${listing.body.listing.id}`)).body.listing.quantity).toBe(4);
  });

  it('webhooks: an endpoint and its secret, a rotation and a test event, once each', async () => {
    const [endpoint, endpointAgain] = await twice('/webhooks', { url: receiver.url('/lost') });
    expect([endpoint.status, endpointAgain.body.webhook.id, endpointAgain.body.secret]).toEqual([201, endpoint.body.webhook.id, endpoint.body.secret]);
    expect(await count('/webhooks')).toBe(1);
    const webhookId = endpoint.body.webhook.id as string;
    const [rotated, rotatedAgain] = await twice(`/webhooks/${webhookId}/secret/rotate`);
    expect(rotatedAgain.body.secret).toBe(rotated.body.secret);
    expect(rotated.body.secret).not.toBe(endpoint.body.secret);
    const [test, testAgain] = await twice(`/webhooks/${webhookId}/test`);
    expect([test.status, testAgain.body.delivery.id]).toEqual([202, test.body.delivery.id]);
    expect(await count(`/webhooks/${webhookId}/deliveries`)).toBe(1);
  });

  it('a retry with the key and another body is still refused, and a duplicate in flight still waits', async () => {
    const headers = { 'idempotency-key': key() };
    await app.api.post('/incentives/catalog', { name: 'A', coinCost: 1 }, headers);
    await gatewayDb.collection('idempotency_keys').updateOne({ _id: `${app.appId}:${headers['idempotency-key']}` as never }, { $set: { state: 'retryable' } });
    const other = await app.api.post('/incentives/catalog', { name: 'B', coinCost: 1 }, headers);
    expect([other.status, other.body.error.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
    // A key held by a run in progress (its lease still runs): 409 CONFLICT, nothing run.
    await gatewayDb
      .collection('idempotency_keys')
      .updateOne({ _id: `${app.appId}:${headers['idempotency-key']}` as never }, { $set: { state: 'in_progress', leaseUntil: new Date(Date.now() + 60_000) } });
    const busy = await app.api.post('/incentives/catalog', { name: 'A', coinCost: 1 }, headers);
    expect([busy.status, busy.body.error.code]).toEqual([409, 'CONFLICT']);
  });
});
