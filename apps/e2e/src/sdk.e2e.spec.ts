import { ApiError, ReferralIncentiveClient, RequestTimeoutError, WebhookVerificationError, verifyWebhook } from '@ris/sdk';
import { WebhookReceiver, createTestApp, e2eStack, type TestApp } from '@ris/testing';
import { FaultProxy } from './support/fault-proxy';

/*
 * The SDK (libs/sdk) against the real stack: every resource group once,
 * typed errors, a POST whose answer was lost retried and applied once,
 * pagination to the end, a webhook delivery verified.
 */
describe('the TypeScript SDK against the real stack', () => {
  let app: TestApp;
  let ris: ReferralIncentiveClient;

  beforeAll(async () => {
    app = await createTestApp('sdk');
    ris = new ReferralIncentiveClient({ baseUrl: e2eStack().gatewayUrl, apiKey: app.apiKey });
  });

  it('covers the referral side: campaigns, referrals, clicks, conversions, stats, rewards, fraud flags, embed tokens', async () => {
    const { campaign } = await ris.campaigns.create({
      name: 'SDK launch',
      referrerReward: { amount: 10, fulfillmentType: 'DISCOUNT_CODE' },
      landingUrl: 'https://shop.example.com/welcome',
    });
    expect((await ris.campaigns.get(campaign.id)).campaign.landingUrl).toBe('https://shop.example.com/welcome');
    expect((await ris.campaigns.update(campaign.id, { name: 'SDK launch 2' })).campaign.name).toBe('SDK launch 2');
    expect((await ris.campaigns.list({ status: 'ACTIVE' })).campaigns.map((c) => c.id)).toContain(campaign.id);

    const referral = await ris.referrals.create({ campaignId: campaign.id, referrerId: 'ann' });
    expect((await ris.referrals.get(referral.referralCode)).referral.referrerId).toBe('ann');
    expect((await ris.referrals.list({ campaignId: campaign.id })).referrals).toHaveLength(1);
    const click = await ris.clicks.record({ referralCode: referral.referralCode, refereeId: 'bob' });
    expect(click.success).toBe(true);
    const conversion = await ris.conversions.record({ referralCode: referral.referralCode, refereeId: 'bob', amount: 25 });
    expect(conversion.referrerId).toBe('ann');
    expect((await ris.conversions.list({ userId: 'bob' })).conversions).toHaveLength(1);
    expect(await ris.stats.campaign(campaign.id)).toMatchObject({ totalReferrals: 1, totalClicks: 1, totalConversions: 1 });
    expect((await ris.stats.user('ann', { campaignId: campaign.id })).conversions).toBe(1);
    const day = new Date().toISOString().slice(0, 10);
    const series = await ris.stats.timeseries({ campaignId: campaign.id, interval: 'day', from: `${day}T00:00:00Z`, to: `${day}T23:59:59Z` });
    expect(series.buckets.reduce((sum, b) => sum + b.conversions, 0)).toBe(1);

    const rewardId = conversion.rewards[0].rewardId;
    const claimed = await ris.rewards.claim(rewardId);
    expect((await ris.rewards.validate(claimed.discountCode!)).valid).toBe(true);
    expect((await ris.rewards.get(rewardId)).reward.status).toBe('APPROVED');
    expect((await ris.rewards.history(rewardId)).history.length).toBeGreaterThan(0);
    expect((await ris.rewards.listForUser('ann')).rewards.map((r) => r.id)).toEqual([rewardId]);
    expect((await ris.fraudFlags.list()).flags).toEqual([]);
    const embed = await ris.embedTokens.create({ userId: 'ann', campaignId: campaign.id });
    expect(embed.widgetUrl).toContain('/embed/referrals?token=et1.');
  });

  it('covers the incentive side: actions, events, balances, levels, badges, milestones, leaderboard, catalog, marketplace', async () => {
    const { incentives } = ris;
    await incentives.actions.create({ key: 'lesson', name: 'Lesson', type: 'STANDARD', coins: 10, xp: 5 });
    expect((await incentives.actions.get('lesson')).action.coins).toBe(10);
    await incentives.events.record({ userId: 'ann', actionKey: 'lesson' });
    expect((await incentives.events.list({ userId: 'ann' })).events).toHaveLength(1);
    expect((await incentives.balances.get('ann')).balance.coins).toBe(10);
    expect((await incentives.levels.list()).levels).toEqual(expect.any(Array));
    expect((await incentives.badges.list()).badges).toEqual([]);
    expect((await incentives.milestones.listDefinitions()).milestones).toEqual([]);
    expect((await incentives.leaderboard.get({ limit: 10 })).map((e) => e.userId)).toContain('ann');
    const { item } = await incentives.catalog.create({ name: 'Mug', coinCost: 5, published: true });
    expect((await incentives.catalog.list()).items.map((i) => i.id)).toEqual([item.id]);
    expect((await incentives.marketplace.listPublicListings({ limit: 1 })).pagination.limit).toBe(1);
  });

  it('throws the error envelope as an ApiError with its code, status and request id', async () => {
    const error = await ris.campaigns.get('cmp_missing').catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND', requestId: expect.any(String) });
    const invalid = await ris.referrals.create({ campaignId: '', referrerId: 'x' }).catch((err: unknown) => err);
    expect(invalid).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details: { issues: expect.any(Array) } });
  });

  it('retries a conversion whose answer was lost (a 503, then a timeout) with its Idempotency-Key, and it is applied once', async () => {
    const { campaign } = await ris.campaigns.create({ name: 'Lost answers', referrerReward: { amount: 5, fulfillmentType: 'CUSTOM' } });
    const { referralCode } = await ris.referrals.create({ campaignId: campaign.id, referrerId: 'cid' });
    // The first POST /conversions reaches the gateway and is done, but the client gets a 503 (then: no answer in time).
    let lost = 0;
    const proxy = await FaultProxy.start(e2eStack().gatewayUrl, (req) => {
      if (req.method !== 'POST' || !req.url?.startsWith('/api/v1/conversions') || lost >= 2) return 'pass';
      lost += 1;
      return lost === 1 ? 'answer-503-after-forwarding' : 'answer-late-after-forwarding';
    });
    try {
      const viaProxy = new ReferralIncentiveClient({ baseUrl: proxy.url, apiKey: app.apiKey, timeoutMs: 2000, retry: { baseDelayMs: 50 } });
      const first = await viaProxy.conversions.record({ referralCode, refereeId: 'dee' });
      expect(first.refereeId).toBe('dee');
      // Three tries of one operation: done by the first, answered again (replayed) to the others.
      const tries = proxy.forwarded.filter((r) => r.method === 'POST');
      expect(tries.map((r) => [r.status, r.replayed])).toEqual([
        [201, false],
        [201, true],
        [201, true],
      ]);
      expect(new Set(tries.map((r) => r.idempotencyKey)).size).toBe(1);

      lost = 1;
      const second = await viaProxy.conversions.record({ referralCode, refereeId: 'eve' });
      expect(second.refereeId).toBe('eve');

      // Without retries the lost answer is the caller's to handle: a typed timeout.
      lost = 1;
      const once = new ReferralIncentiveClient({ baseUrl: proxy.url, apiKey: app.apiKey, timeoutMs: 1000, retry: false });
      await expect(once.conversions.record({ referralCode, refereeId: 'fay' })).rejects.toBeInstanceOf(RequestTimeoutError);
    } finally {
      await proxy.close();
    }
    // dee and eve once each (and fay, whose lost try still took effect on the server).
    expect((await ris.stats.campaign(campaign.id)).totalConversions).toBe(3);
    const records = await ris.conversions.list({ campaignId: campaign.id, limit: 100 });
    expect(records.conversions.map((c) => c.refereeId).sort()).toEqual(['dee', 'eve', 'fay']);
  });

  it('iterates a paginated list to its end', async () => {
    const own = await createTestApp('sdk pages');
    const client = new ReferralIncentiveClient({ baseUrl: e2eStack().gatewayUrl, apiKey: own.apiKey });
    const made: string[] = [];
    for (let i = 0; i < 7; i += 1) made.push((await client.campaigns.create({ name: `Page ${i}`, referrerReward: { amount: 1, fulfillmentType: 'CUSTOM' } })).campaign.id);
    const seen: string[] = [];
    for await (const campaign of client.campaigns.iterate({ limit: 3 })) seen.push(campaign.id);
    expect(seen).toEqual([...made].reverse());
  });

  it('verifies a webhook delivery with verifyWebhook, and refuses an altered one', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const { webhook, secret } = await ris.webhooks.create({ url: receiver.url('/sdk'), events: ['REFERRAL_CREATED'] });
      expect((await ris.webhooks.get(webhook.id)).webhook.url).toBe(receiver.url('/sdk'));
      const { campaign } = await ris.campaigns.create({ name: 'Hooked', referrerReward: { amount: 1, fulfillmentType: 'CUSTOM' } });
      const referral = await ris.referrals.create({ campaignId: campaign.id, referrerId: 'gus' });
      const [delivery] = await receiver.waitFor((r) => r.path === '/sdk');
      const event = verifyWebhook<{ referralCode: string }>(delivery.body, delivery.headers, secret);
      expect([event.event, event.data.referralCode, event.id]).toEqual(['REFERRAL_CREATED', referral.referralCode, delivery.headers['webhook-id']]);
      expect(() => verifyWebhook(delivery.body.replace('gus', 'mallory'), delivery.headers, secret)).toThrow(WebhookVerificationError);
      const deliveries = await ris.webhooks.listDeliveries(webhook.id);
      expect(deliveries.deliveries.length).toBeGreaterThan(0);
    } finally {
      await receiver.close();
    }
  });
});
