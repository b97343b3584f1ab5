import { domainEvent } from '@ris/events';
import { type BackendService, type ProcessStack } from '@ris/stack';
import { ApiClient, WebhookReceiver, eventually, publishEvents, readEvents, type ApiResponse, type TestApp } from '@ris/testing';
import { balanceOf, CoinFaucet } from './support/coin-balances';
import { ownStack, removeOwnStack } from './support/own-stack';

type StreamEvent = Awaited<ReturnType<typeof readEvents>>[number];

// Every service that publishes events is killed (SIGKILL, through the
// test-only RIS_CRASH_AT setting) right after the write that changes its
// state, before anything is published; after a restart each event is on
// the stream exactly once and its consumers act on it once: the webhook
// receiver gets it once, the referral-driven coins are granted once. A
// stack of its own (own databases, stream and Redis keys), so the kills
// disturb no other test file.
describe('no event lost to a crash between a change and its publication', () => {
  let stack: ProcessStack;
  let receiver: WebhookReceiver;
  let app: TestApp;
  let faucet: CoinFaucet;
  let campaignId: string;
  let n = 0;
  const user = (name: string) => `${name}-${(n += 1)}`;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    stack = ownStack('oc', {
      env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', RATE_LIMIT_PER_SECOND: '10000', RATE_LIMIT_BURST: '10000' },
      appEnv: {
        // A failing endpoint is disabled after its third attempt, about 2 s in.
        'webhook-service': { WEBHOOK_RETRY_SCHEDULE: '1,1,1', WEBHOOK_DISABLE_AFTER_MS: '1000' },
        // A redemption whose worker died is taken over 3 s later.
        'catalog-marketplace-service': { INCENTIVE_TIMEOUT_MS: '1000', REDEMPTION_LEASE_MS: '3000', RECOVERY_INTERVAL_MS: '500' },
      },
    });
    await stack.start();
    const created = await new ApiClient(`${stack.gatewayUrl}/admin/v1`, stack.options.adminToken).post('/apps', { name: 'crashes' });
    app = { appId: created.body.app.id, apiKey: created.body.apiKey, api: new ApiClient(`${stack.gatewayUrl}/api/v1`, created.body.apiKey) };
    faucet = new CoinFaucet(app);
    expect((await app.api.post('/webhooks', { url: receiver.url('/all') })).status).toBe(201);
    campaignId = (await app.api.post('/campaigns', { name: 'Crashes', referrerReward: { amount: 10, fulfillmentType: 'DISCOUNT_CODE' } })).body.campaign.id;
    // Referral-driven coins: each is granted once per event, whatever the stream delivers.
    await app.api.post('/incentives/actions', { key: 'code', name: 'Code', type: 'REFERRAL_CODE_GENERATE', coins: 50 });
    await app.api.post('/incentives/actions', { key: 'clicked', name: 'Clicked', type: 'REFERRAL_CLICK', coins: 1 });
    await app.api.post('/incentives/actions', { key: 'converted', name: 'Converted', type: 'REFERRAL_REFEREE_ACTION', coins: 100 });
    await app.api.post('/incentives/actions', { key: 'login', name: 'Log in', type: 'STANDARD', coins: 5, xp: 100 });
    await app.api.post('/incentives/levels', { level: 1, name: 'New', xpThreshold: 0 });
    await app.api.post('/incentives/levels', { level: 2, name: 'Regular', xpThreshold: 100, rewards: { coins: 10 } });
  }, 120_000);

  afterAll(async () => {
    await removeOwnStack(stack);
    await receiver?.close();
  });

  /**
   * Restarts `service` set to kill itself at `point`, makes the request
   * that reaches it (it fails: the service died under it), and starts the
   * service again as usual.
   */
  async function crashAt(service: BackendService, point: string, request: () => Promise<ApiResponse>): Promise<void> {
    await stack.stopApp(service);
    await stack.startApp(service, { RIS_CRASH_AT: point });
    const res = await request();
    expect((await stack.lastExit(service)).signal).toBe('SIGKILL');
    expect(res.status).toBeGreaterThanOrEqual(500);
    await stack.startApp(service);
  }

  const onStream = (type: string, match: (event: StreamEvent) => boolean) =>
    readEvents(type, match, { stream: stack.options.eventsStream, subjectPrefix: stack.options.eventsSubjectPrefix });

  /** The event the crashed change announces: on the stream once it is published, exactly once. */
  async function publishedOnce(type: string, match: (event: StreamEvent) => boolean): Promise<StreamEvent> {
    const events = await eventually(() => onStream(type, match), (found) => found.length > 0, 30_000);
    expect(events).toHaveLength(1);
    return events[0];
  }

  /** Delivered to the app's endpoint (a delivery's webhook-id is its event's; the last test checks none came twice). */
  const messageId = (eventId: string) => `msg_${eventId.replace(/-/g, '')}`;
  const delivered = (eventId: string) => receiver.waitFor((r) => r.path === '/all' && r.headers['webhook-id'] === messageId(eventId));

  const coins = async (userId: string) => (await balanceOf(app, userId)).coins;
  const referral = async (referrerId: string) => (await app.api.post('/referrals', { campaignId, referrerId })).body as { referralId: string; referralCode: string };

  it('referral service: a referral, a click and a conversion each announced once', async () => {
    const creator = user('creator');
    await crashAt('referral-service', 'referral.created', () => app.api.post('/referrals', { campaignId, referrerId: creator }));
    const created = await publishedOnce('referral.created', (e) => e.data.referrerId === creator);
    await delivered(created.id);
    expect(await eventually(() => coins(creator), (c) => c === 50)).toBe(50);
    // The referral is there and answers by its code, as the event says.
    expect((await app.api.get(`/referrals/${created.data.referralCode as string}`)).body.referral).toMatchObject({ referrerId: creator });

    const sharer = user('sharer');
    const { referralCode } = await referral(sharer);
    await crashAt('referral-service', 'referral.clicked', () => app.api.post('/clicks', { referralCode, refereeId: 'visitor' }));
    const clicked = await publishedOnce('referral.clicked', (e) => e.data.referralCode === referralCode);
    await delivered(clicked.id);
    expect(await eventually(() => coins(sharer), (c) => c === 51)).toBe(51);

    const seller = user('seller');
    const sold = await referral(seller);
    const buyer = user('buyer');
    await crashAt('referral-service', 'conversion.created', () => app.api.post('/conversions', { referralCode: sold.referralCode, refereeId: buyer }));
    const converted = await publishedOnce('conversion.created', (e) => e.data.refereeId === buyer);
    expect(converted.data).toMatchObject({ referralCode: sold.referralCode, level: 1, rewardAmount: 10 });
    await delivered(converted.id);
    expect(await eventually(() => coins(seller), (c) => c === 150)).toBe(150);
  }, 120_000);

  it('reward service: a claimed code announced once, with the code the reward keeps', async () => {
    const seller = user('claimer');
    const sold = await referral(seller);
    expect((await app.api.post('/conversions', { referralCode: sold.referralCode, refereeId: user('buyer') })).status).toBe(201);
    const reward = (await eventually(() => onStream('reward.created', (e) => e.data.userId === seller), (found) => found.length === 1))[0];
    const rewardId = reward.data.rewardId as string;
    await crashAt('reward-service', 'reward.claimed', () => app.api.post(`/rewards/${rewardId}/claim`));
    const claimed = await publishedOnce('reward.claimed', (e) => e.data.rewardId === rewardId);
    await delivered(claimed.id);
    // Claiming again answers the code the crashed claim drew: the one announced.
    const again = await app.api.post(`/rewards/${rewardId}/claim`);
    expect(again.body.discountCode).toBe(claimed.data.discountCode);
  }, 60_000);

  it('incentive service: a processed event and a level-up each announced once, their coins granted once', async () => {
    const player = user('player');
    await crashAt('incentive-service', 'incentive.event.processed', () => app.api.post('/incentives/events', { userId: player, actionKey: 'login' }));
    const processed = await publishedOnce('incentive.event.processed', (e) => e.data.userId === player);
    await delivered(processed.id);
    // The login's 5 coins and level 2's 10, once.
    expect(await coins(player)).toBe(15);

    const climber = user('climber');
    await crashAt('incentive-service', 'incentive.granted', () => app.api.post('/incentives/events', { userId: climber, actionKey: 'login' }));
    const levelUp = await publishedOnce('incentive.level_up', (e) => e.data.userId === climber);
    // Levels 1 (at 0 XP) and 2, granted together.
    expect(levelUp.data).toMatchObject({ from: 0, to: 2 });
    await delivered(levelUp.id);
    expect(await coins(climber)).toBe(15);
  }, 60_000);

  it('catalog service: a redemption announced once, whether it died before its follow-up or after storing its events', async () => {
    const item = (await app.api.post('/incentives/catalog', { name: 'Mug', coinCost: 5, inventory: 10, published: true })).body.item as { id: string };
    for (const point of ['redemption.effects', 'redemption.closed']) {
      const buyer = user('redeemer');
      await faucet.give(buyer, 20);
      await crashAt('catalog-marketplace-service', point, () => app.api.post('/incentives/redeem', { userId: buyer, itemId: item.id }));
      // Died before the follow-up: the recovery pass runs it once the lease is out. After: the sweep publishes what was stored.
      const redeemed = await publishedOnce('redemption.created', (e) => e.data.userId === buyer);
      await delivered(redeemed.id);
      expect(await coins(buyer)).toBe(15);
    }
    expect((await app.api.get(`/incentives/catalog/${item.id}`)).body.item.inventory).toBe(8);
  }, 90_000);

  it('delivers every event of these crashes to the webhook endpoint once', async () => {
    // Whatever came late has had time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const ids = receiver.received('/all').map((r) => r.headers['webhook-id']);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('webhook service: an endpoint disabled for failing announced once', async () => {
    // An app of its own: the webhook service dies while delivering, and its own deliveries are the only ones in flight.
    const created = await new ApiClient(`${stack.gatewayUrl}/admin/v1`, stack.options.adminToken).post('/apps', { name: 'failing' });
    const other = new ApiClient(`${stack.gatewayUrl}/api/v1`, created.body.apiKey);
    receiver.respond('/down', () => ({ status: 503 }));
    const down = (await other.post('/webhooks', { url: receiver.url('/down'), events: ['REFERRAL_CREATED'] })).body.webhook as { id: string };
    expect((await other.post('/webhooks', { url: receiver.url('/watch'), events: ['WEBHOOK_ENDPOINT_DISABLED'] })).status).toBe(201);
    await crashAt('webhook-service', 'webhook.endpoint_disabled', async () => {
      // An event of that app, as the referral service would publish it; its deliveries to /down fail.
      const event = domainEvent('referral.created', created.body.app.id, { referralId: user('ref') });
      await publishEvents([event], { subjectPrefix: stack.options.eventsSubjectPrefix });
      // The third attempt, about 2 s in, disables the endpoint: the service dies there.
      await stack.lastExit('webhook-service');
      return other.get(`/webhooks/${down.id}`);
    });
    const disabled = await publishedOnce('webhook.endpoint_disabled', (e) => e.data.webhookId === down.id);
    await receiver.waitFor((r) => r.path === '/watch');
    expect((await other.get(`/webhooks/${down.id}`)).body.webhook).toMatchObject({ enabled: false, disabledReason: 'FAILING' });
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(receiver.received('/watch').map((r) => r.headers['webhook-id'])).toEqual([messageId(disabled.id)]);
  }, 60_000);
});
