import { Webhook } from 'standardwebhooks';
import { domainEvent } from '@ris/events';
import { WebhookReceiver, createTestApp, eventually, publishEvents, type ReceivedWebhook, type TestApp } from '@ris/testing';

const reward = { amount: 10, fulfillmentType: 'DISCOUNT_CODE' };

/** Verifies with the public standardwebhooks library (not our code) and returns the parsed body. */
const verified = (secret: string, request: ReceivedWebhook): any => new Webhook(secret).verify(request.body, request.headers);

describe('webhooks', () => {
  let receiver: WebhookReceiver;
  let path = 0;
  /** A fresh receiver path per endpoint: each is its own endpoint with its own behaviour. */
  const nextPath = (name: string) => `/${name}-${(path += 1)}`;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await receiver.close();
  });

  /** An app of its own with an active campaign: every endpoint of an app receives all of its events. */
  async function freshApp(name: string): Promise<{ app: TestApp; campaignId: string }> {
    const app = await createTestApp(`webhooks ${name}`);
    const campaign = await app.api.post('/campaigns', { name, referrerReward: reward, fraud: { flagThreshold: 100 } });
    expect(campaign.status).toBe(201);
    return { app, campaignId: campaign.body.campaign.id };
  }

  async function register(app: TestApp, urlPath: string, extra: Record<string, unknown> = {}) {
    const res = await app.api.post('/webhooks', { url: receiver.url(urlPath), ...extra });
    expect(res.status).toBe(201);
    return res.body as { webhook: { id: string; [field: string]: unknown }; secret: string };
  }

  describe('endpoints', () => {
    let app: TestApp;
    let other: TestApp;

    beforeAll(async () => {
      [app, other] = await Promise.all([createTestApp('webhooks endpoints'), createTestApp('webhooks endpoints other')]);
    });

    it('registers an endpoint and shows its secret only once', async () => {
      const url = receiver.url(nextPath('crud'));
      const res = await app.api.post('/webhooks', { url, events: ['REWARD_CREATED', 'REFERRAL_CREATED'], description: ' Shop backend ' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        webhook: {
          id: expect.stringMatching(/^whe_/),
          url,
          events: ['REWARD_CREATED', 'REFERRAL_CREATED'],
          description: 'Shop backend',
          enabled: true,
          disabledReason: null,
          disabledAt: null,
          failingSince: null,
          previousSecretExpiresAt: null,
          createdAt: expect.stringMatching(/Z$/),
          updatedAt: expect.stringMatching(/Z$/),
        },
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
      });
      expect(Buffer.from(res.body.secret.slice('whsec_'.length), 'base64').length).toBeGreaterThanOrEqual(24);

      const got = await app.api.get(`/webhooks/${res.body.webhook.id}`);
      expect(got.status).toBe(200);
      expect(got.body).toEqual({ webhook: res.body.webhook });
      const list = await app.api.get('/webhooks');
      expect(list.body.webhooks.map((w: { id: string }) => w.id)).toContain(res.body.webhook.id);
      expect(JSON.stringify(got.body) + JSON.stringify(list.body)).not.toContain(res.body.secret.slice(6));
    });

    it('lists endpoints page by page, newest first', async () => {
      const own = await createTestApp('webhooks list');
      const ids: string[] = [];
      for (let i = 0; i < 3; i += 1) ids.push((await register(own, nextPath('list'))).webhook.id);
      const first = await own.api.get('/webhooks?limit=2');
      expect(first.status).toBe(200);
      expect(first.body.webhooks.map((w: { id: string }) => w.id)).toEqual([ids[2], ids[1]]);
      expect(first.body.pagination).toEqual({ page: 1, limit: 2, totalItems: 3, totalPages: 2 });
      const second = await own.api.get('/webhooks?limit=2&page=2');
      expect(second.body.webhooks.map((w: { id: string }) => w.id)).toEqual([ids[0]]);
      expect((await own.api.get('/webhooks?limit=0')).status).toBe(400);
      expect((await own.api.get('/webhooks?limit=101')).status).toBe(400);
    });

    it('updates url, events and description, and disables and re-enables an endpoint', async () => {
      const { webhook } = await register(app, nextPath('patch'), { description: 'first' });
      const newUrl = receiver.url(nextPath('patched'));
      const patched = await app.api.patch(`/webhooks/${webhook.id}`, { url: newUrl, events: ['REWARD_CLAIMED'], description: null });
      expect(patched.status).toBe(200);
      expect(patched.body.webhook).toMatchObject({ url: newUrl, events: ['REWARD_CLAIMED'], description: null, enabled: true });

      const off = await app.api.patch(`/webhooks/${webhook.id}`, { enabled: false });
      expect(off.body.webhook).toMatchObject({ enabled: false, disabledReason: 'MANUAL', disabledAt: expect.stringMatching(/Z$/) });
      const on = await app.api.patch(`/webhooks/${webhook.id}`, { enabled: true, events: [] });
      expect(on.body.webhook).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null, failingSince: null, events: [] });
      // Nothing sent: nothing changes.
      expect((await app.api.patch(`/webhooks/${webhook.id}`, {})).body.webhook).toMatchObject({ url: newUrl, enabled: true });
    });

    it('deletes an endpoint with its deliveries', async () => {
      const { webhook } = await register(app, nextPath('delete'));
      expect((await app.api.post(`/webhooks/${webhook.id}/test`)).status).toBe(202);
      expect((await app.api.delete(`/webhooks/${webhook.id}`)).status).toBe(204);
      expect((await app.api.get(`/webhooks/${webhook.id}`)).status).toBe(404);
      expect((await app.api.get(`/webhooks/${webhook.id}/deliveries`)).status).toBe(404);
      expect((await app.api.delete(`/webhooks/${webhook.id}`)).status).toBe(404);
    });

    it('refuses bad URLs, unknown events and bad fields with 400', async () => {
      const bad: Array<Record<string, unknown>> = [
        {},
        { url: '' },
        { url: 'not a url' },
        { url: 'ftp://example.com/hook' },
        { url: 'http://user:secret@127.0.0.1/hook' },
        { url: `https://example.com/${'x'.repeat(2100)}` },
        { url: receiver.url('/x'), events: ['NOT_AN_EVENT'] },
        { url: receiver.url('/x'), events: ['WEBHOOK_TEST'] },
        { url: receiver.url('/x'), events: 'REFERRAL_CREATED' },
        { url: receiver.url('/x'), description: 'd'.repeat(501) },
        { url: 42 },
      ];
      for (const body of bad) {
        const res = await app.api.post('/webhooks', body);
        expect([JSON.stringify(body).slice(0, 80), res.status, res.body.error?.code]).toEqual([
          JSON.stringify(body).slice(0, 80),
          400,
          'VALIDATION_ERROR',
        ]);
      }
      // Well formed, but the world refuses it: 422 naming why.
      const unresolvable = await app.api.post('/webhooks', { url: 'https://nowhere.invalid/hook' });
      expect([unresolvable.status, unresolvable.body.error.code, unresolvable.body.error.details]).toEqual([422, 'UNRESOLVABLE_HOST', { field: 'url' }]);
      const { webhook } = await register(app, nextPath('badpatch'));
      expect((await app.api.patch(`/webhooks/${webhook.id}`, { url: 'gopher://x' })).status).toBe(400);
      expect((await app.api.patch(`/webhooks/${webhook.id}`, { enabled: 'yes' })).status).toBe(400);
      expect((await app.api.get(`/webhooks/${webhook.id}/deliveries?status=LOST`)).status).toBe(400);
    });

    it("keeps apps apart: another app's endpoint is unknown to it", async () => {
      const { webhook } = await register(app, nextPath('private'));
      const id = webhook.id;
      for (const res of [
        await other.api.get(`/webhooks/${id}`),
        await other.api.patch(`/webhooks/${id}`, { enabled: false }),
        await other.api.post(`/webhooks/${id}/secret/rotate`),
        await other.api.post(`/webhooks/${id}/test`),
        await other.api.get(`/webhooks/${id}/deliveries`),
        await other.api.delete(`/webhooks/${id}`),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('NOT_FOUND');
      }
      expect((await other.api.get('/webhooks')).body.webhooks.map((w: { id: string }) => w.id)).not.toContain(id);
      expect((await app.api.get(`/webhooks/${id}`)).body.webhook.enabled).toBe(true);
    });
  });

  describe('deliveries', () => {
    it('sends REFERRAL_CREATED with the referral and a signature standardwebhooks verifies', async () => {
      const { app, campaignId } = await freshApp('referral created');
      const hookPath = nextPath('referral');
      const { webhook, secret } = await register(app, hookPath);
      const created = await app.api.post('/referrals', { campaignId, referrerId: 'alice' });
      expect(created.status).toBe(201);

      const [request] = await receiver.waitFor((r) => r.path === hookPath);
      const body = verified(secret, request);
      expect(body).toEqual({
        id: expect.stringMatching(/^msg_/),
        event: 'REFERRAL_CREATED',
        createdAt: expect.stringMatching(/Z$/),
        data: expect.objectContaining({
          referralId: created.body.referralId,
          referralCode: created.body.referralCode,
          campaignId,
          referrerId: 'alice',
          riskScore: null,
          warning: null,
        }),
      });
      expect(request.headers['webhook-id']).toBe(body.id);
      expect(request.headers['content-type']).toBe('application/json');

      const deliveries = await eventually(
        () => app.api.get(`/webhooks/${webhook.id}/deliveries`),
        (res) => res.body.deliveries?.[0]?.status === 'SUCCEEDED',
      );
      expect(deliveries.body).toEqual({
        deliveries: [
          {
            id: expect.stringMatching(/^whd_/),
            webhookId: webhook.id,
            messageId: body.id,
            event: 'REFERRAL_CREATED',
            status: 'SUCCEEDED',
            attempts: 1,
            lastResponseStatus: 200,
            lastError: null,
            lastAttemptAt: expect.stringMatching(/Z$/),
            nextAttemptAt: null,
            createdAt: expect.stringMatching(/Z$/),
            completedAt: expect.stringMatching(/Z$/),
          },
        ],
        pagination: { page: 1, limit: 25, totalItems: 1, totalPages: 1 },
      });
    });

    it(
      'sends REFERRAL_CREATED, REWARD_CREATED and REWARD_CLAIMED for a referral, its conversion and the claim',
      async () => {
        const { app, campaignId } = await freshApp('flow');
        const hookPath = nextPath('flow');
        const { secret } = await register(app, hookPath, { events: ['REFERRAL_CREATED', 'REWARD_CREATED', 'REWARD_CLAIMED'] });
        const referral = await app.api.post('/referrals', { campaignId, referrerId: 'rita' });
        expect(referral.status).toBe(201);
        const conversion = await app.api.post('/conversions', { referralCode: referral.body.referralCode, refereeId: 'ron', amount: 120 });
        expect(conversion.status).toBe(201);
        expect(conversion.body.rewardCreated).toBe(true);
        const rewards = await app.api.get('/rewards?userId=rita');
        expect(rewards.status).toBe(200);
        const rewardId: string = rewards.body.rewards[0].id;
        const claim = await app.api.post(`/rewards/${rewardId}/claim`);
        expect(claim.status).toBe(200);

        const requests = await receiver.waitFor((r) => r.path === hookPath, 3);
        const bodies = requests.map((r) => verified(secret, r));
        expect(bodies.map((b) => b.event).sort()).toEqual(['REFERRAL_CREATED', 'REWARD_CLAIMED', 'REWARD_CREATED']);
        const byEvent = Object.fromEntries(bodies.map((b) => [b.event, b.data]));
        expect(byEvent.REFERRAL_CREATED).toMatchObject({ referralId: referral.body.referralId, riskScore: null, warning: null });
        expect(byEvent.REWARD_CREATED).toMatchObject({ referralId: referral.body.referralId, userId: 'rita', amount: 10 });
        expect(byEvent.REWARD_CLAIMED).toMatchObject({ userId: 'rita', discountCode: claim.body.discountCode });
      },
    );

    it('turns reward.created and reward.claimed domain events into REWARD_CREATED and REWARD_CLAIMED', async () => {
      // The shape docs/events.md gives the reward service's events, published
      // straight onto the stack's stream: proves the mapping on its own.
      const { app } = await freshApp('reward events');
      const hookPath = nextPath('rewards');
      const { secret } = await register(app, hookPath, { events: ['REWARD_CREATED', 'REWARD_CLAIMED'] });
      const created = domainEvent('reward.created', app.appId, {
        rewardId: 'rwd_e2e1',
        referralId: 'ref_e2e1',
        conversionId: 'cnv_e2e1',
        campaignId: 'cmp_e2e1',
        userId: 'rita',
        side: 'REFERRER',
        level: 1,
        amount: 10,
        fulfillmentType: 'DISCOUNT_CODE',
        status: 'APPROVED',
        createdAt: new Date().toISOString(),
      });
      const claimed = domainEvent('reward.claimed', app.appId, {
        rewardId: 'rwd_e2e1',
        userId: 'rita',
        discountCode: 'SAVE-E2E1',
        expiresAt: new Date(Date.now() + 90 * 24 * 3600 * 1000).toISOString(),
      });
      await publishEvents([created, claimed, domainEvent('referral.clicked', app.appId, { clickId: 'clk_x' })]);

      const requests = await receiver.waitFor((r) => r.path === hookPath, 2);
      const bodies = requests.map((r) => verified(secret, r));
      expect(bodies.find((b) => b.event === 'REWARD_CREATED')).toEqual({
        id: `msg_${created.id.replace(/-/g, '')}`,
        event: 'REWARD_CREATED',
        createdAt: created.occurredAt,
        data: created.data,
      });
      expect(bodies.find((b) => b.event === 'REWARD_CLAIMED')?.data).toEqual(claimed.data);
      // REFERRAL_CLICKED is not among this endpoint's events.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(receiver.received(hookPath)).toHaveLength(2);
    });

    it("sends a marketplace redemption to the redeeming app and the listing owner's app", async () => {
      const [{ app: buyer }, { app: owner }] = await Promise.all([freshApp('buyer'), freshApp('owner')]);
      const [buyerPath, ownerPath] = [nextPath('buyer'), nextPath('owner')];
      const [buyerHook, ownerHook] = [await register(buyer, buyerPath), await register(owner, ownerPath)];
      const redeemed = domainEvent('marketplace.redeemed', buyer.appId, {
        redemptionId: 'mkr_1',
        listingId: 'lst_1',
        listingAppId: owner.appId,
        userId: 'bea',
        discountCode: 'MKT-E2E',
        expiresAt: new Date().toISOString(),
      });
      await publishEvents([redeemed]);
      const [toBuyer] = await receiver.waitFor((r) => r.path === buyerPath);
      const [toOwner] = await receiver.waitFor((r) => r.path === ownerPath);
      expect(verified(buyerHook.secret, toBuyer)).toMatchObject({ event: 'MARKETPLACE_REDEEMED', data: { discountCode: 'MKT-E2E' } });
      expect(verified(ownerHook.secret, toOwner)).toMatchObject({ event: 'MARKETPLACE_REDEEMED', data: { listingAppId: owner.appId } });
    });

    it('delivers on the third attempt to a receiver that fails twice', async () => {
      const { app, campaignId } = await freshApp('flaky');
      const hookPath = nextPath('flaky');
      receiver.respond(hookPath, (r) => (r.n <= 2 ? { status: r.n === 1 ? 500 : 429, body: `failure ${r.n}` } : { status: 200 }));
      const { webhook, secret } = await register(app, hookPath);
      await app.api.post('/referrals', { campaignId, referrerId: 'flo' });

      const requests = await receiver.waitFor((r) => r.path === hookPath, 3);
      expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
      // The schedule of the test stack retries after about 1 s, then 1 s (±20 %).
      expect(requests[1].receivedAt - requests[0].receivedAt).toBeGreaterThanOrEqual(700);
      expect(verified(secret, requests[2]).event).toBe('REFERRAL_CREATED');

      const list = await eventually(
        () => app.api.get(`/webhooks/${webhook.id}/deliveries`),
        (res) => res.body.deliveries?.[0]?.status === 'SUCCEEDED',
      );
      const [delivery] = list.body.deliveries;
      expect(delivery).toMatchObject({ attempts: 3, lastResponseStatus: 200, nextAttemptAt: null });
      const detail = await app.api.get(`/webhooks/${webhook.id}/deliveries/${delivery.id}`);
      expect(detail.status).toBe(200);
      expect(detail.body.delivery.attemptLog).toEqual([
        expect.objectContaining({ number: 1, responseStatus: 500, responseBody: 'failure 1', durationMs: expect.any(Number) }),
        expect.objectContaining({ number: 2, responseStatus: 429, responseBody: 'failure 2' }),
        expect.objectContaining({ number: 3, responseStatus: 200, error: null, startedAt: expect.stringMatching(/Z$/) }),
      ]);
      expect(detail.body.delivery.payload).toEqual(JSON.parse(requests[2].body));
    });

    it("does not hold up one endpoint's deliveries while another endpoint's receiver hangs", async () => {
      const { app, campaignId } = await freshApp('hang');
      const [hangPath, fastPath] = [nextPath('hang'), nextPath('fast')];
      receiver.respond(hangPath, () => 'hang');
      await register(app, hangPath);
      await register(app, fastPath);
      const started = Date.now();
      for (let i = 0; i < 12; i += 1) expect((await app.api.post('/referrals', { campaignId, referrerId: `h${i}` })).status).toBe(201);
      // All twelve arrive long before the hanging attempts time out (10 s).
      await receiver.waitFor((r) => r.path === fastPath, 12, 8000);
      expect(Date.now() - started).toBeLessThan(8000);
      // The hanging receiver holds exactly its per-endpoint share of the attempts in flight
      // (WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT, 4 by default); the rest of its deliveries wait.
      await receiver.waitFor((r) => r.path === hangPath, 4, 5000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(receiver.received(hangPath)).toHaveLength(4);
      expect(receiver.peakConcurrency(hangPath)).toBe(4);
    });

    it("never sends one app's events to another app's endpoint", async () => {
      const [{ app: a, campaignId: campaignA }, { app: b, campaignId: campaignB }] = await Promise.all([freshApp('iso a'), freshApp('iso b')]);
      const [pathA, pathB] = [nextPath('iso-a'), nextPath('iso-b')];
      await register(a, pathA);
      const { webhook: hookB } = await register(b, pathB);
      for (let i = 0; i < 3; i += 1) await a.api.post('/referrals', { campaignId: campaignA, referrerId: `a${i}` });
      await publishEvents([domainEvent('reward.created', a.appId, { rewardId: 'rwd_iso', referralId: 'r', userId: 'a0', amount: 1 })]);
      await receiver.waitFor((r) => r.path === pathA, 4);
      // B's endpoint works: its own referral arrives, and only that.
      const own = await b.api.post('/referrals', { campaignId: campaignB, referrerId: 'b0' });
      const [onlyB] = await receiver.waitFor((r) => r.path === pathB);
      expect(JSON.parse(onlyB.body).data.referralId).toBe(own.body.referralId);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(receiver.received(pathB)).toHaveLength(1);
      expect((await b.api.get(`/webhooks/${hookB.id}/deliveries`)).body.pagination.totalItems).toBe(1);
    });

    it('sends only subscribed events, nothing to a disabled endpoint, and again once re-enabled', async () => {
      const { app, campaignId } = await freshApp('filters');
      const [allPath, rewardsPath, pausedPath] = [nextPath('all'), nextPath('rewards-only'), nextPath('paused')];
      await register(app, allPath);
      await register(app, rewardsPath, { events: ['REWARD_CREATED'] });
      const { webhook: paused } = await register(app, pausedPath);
      await app.api.patch(`/webhooks/${paused.id}`, { enabled: false });

      await app.api.post('/referrals', { campaignId, referrerId: 'f1' });
      await receiver.waitFor((r) => r.path === allPath);
      await app.api.patch(`/webhooks/${paused.id}`, { enabled: true });
      const second = await app.api.post('/referrals', { campaignId, referrerId: 'f2' });
      const [resumed] = await receiver.waitFor((r) => r.path === pausedPath);
      expect(JSON.parse(resumed.body).data.referralId).toBe(second.body.referralId);
      await receiver.waitFor((r) => r.path === allPath, 2);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(receiver.received(rewardsPath)).toHaveLength(0);
      expect(receiver.received(pausedPath)).toHaveLength(1);
    });

    it('marks a delivery FAILED after its retries, lists it by status and sends it again on request', async () => {
      const { app, campaignId } = await freshApp('retry');
      const hookPath = nextPath('down');
      let up = false;
      receiver.respond(hookPath, () => (up ? { status: 202 } : { status: 503, body: 'maintenance' }));
      const { webhook, secret } = await register(app, hookPath);
      await app.api.post('/referrals', { campaignId, referrerId: 'dora' });

      // 1 attempt + 3 retries (about 1, 1 and 2 s apart in the test stack).
      const failed = await eventually(
        () => app.api.get(`/webhooks/${webhook.id}/deliveries?status=FAILED`),
        (res) => res.body.deliveries?.length === 1,
      );
      const [delivery] = failed.body.deliveries;
      expect(delivery).toMatchObject({ status: 'FAILED', attempts: 4, lastResponseStatus: 503, nextAttemptAt: null });
      expect((await app.api.get(`/webhooks/${webhook.id}/deliveries?status=SUCCEEDED`)).body.deliveries).toEqual([]);
      await eventually(
        () => app.api.get(`/webhooks/${webhook.id}`),
        (res) => typeof res.body.webhook.failingSince === 'string',
      );

      up = true;
      const retried = await app.api.post(`/webhooks/${webhook.id}/deliveries/${delivery.id}/retry`);
      expect(retried.status).toBe(202);
      expect(retried.body.delivery).toMatchObject({ id: delivery.id, status: 'PENDING' });
      const done = await eventually(
        () => app.api.get(`/webhooks/${webhook.id}/deliveries/${delivery.id}`),
        (res) => res.body.delivery?.status === 'SUCCEEDED',
      );
      expect(done.body.delivery).toMatchObject({ attempts: 5, lastResponseStatus: 202 });
      expect(done.body.delivery.attemptLog.map((a: { responseStatus: number }) => a.responseStatus)).toEqual([503, 503, 503, 503, 202]);
      const requests = receiver.received(hookPath);
      expect(requests).toHaveLength(5);
      expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
      expect(verified(secret, requests[4]).data.referrerId).toBe('dora');
      // A success ends the failure streak (written right after the delivery's outcome).
      await eventually(
        () => app.api.get(`/webhooks/${webhook.id}`),
        (res) => res.body.webhook.failingSince === null,
      );

      expect((await app.api.post(`/webhooks/${webhook.id}/deliveries/whd_unknown/retry`)).status).toBe(404);
      await app.api.patch(`/webhooks/${webhook.id}`, { enabled: false });
      const refused = await app.api.post(`/webhooks/${webhook.id}/deliveries/${delivery.id}/retry`);
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('CONFLICT');
    });

    it('sends a signed WEBHOOK_TEST event on request', async () => {
      const { app } = await freshApp('test event');
      const hookPath = nextPath('test');
      const { webhook, secret } = await register(app, hookPath, { events: ['REWARD_CLAIMED'] });
      const res = await app.api.post(`/webhooks/${webhook.id}/test`);
      expect(res.status).toBe(202);
      expect(res.body.delivery).toMatchObject({ webhookId: webhook.id, event: 'WEBHOOK_TEST', status: 'PENDING', attempts: 0 });
      const [request] = await receiver.waitFor((r) => r.path === hookPath);
      expect(verified(secret, request)).toEqual({
        id: res.body.delivery.messageId,
        event: 'WEBHOOK_TEST',
        createdAt: expect.stringMatching(/Z$/),
        data: { webhookId: webhook.id, message: expect.any(String) },
      });
      expect((await app.api.post('/webhooks/whe_unknown/test')).status).toBe(404);
    });

    it('rotates the secret: for 24 h both the new and the previous secret sign', async () => {
      const { app, campaignId } = await freshApp('rotation');
      const hookPath = nextPath('rotate');
      const { webhook, secret: oldSecret } = await register(app, hookPath);
      const rotated = await app.api.post(`/webhooks/${webhook.id}/secret/rotate`);
      expect(rotated.status).toBe(200);
      const newSecret: string = rotated.body.secret;
      expect(newSecret).toMatch(/^whsec_/);
      expect(newSecret).not.toBe(oldSecret);
      const graceEnds = Date.parse(rotated.body.webhook.previousSecretExpiresAt) - Date.now();
      expect(graceEnds).toBeGreaterThan(23.9 * 3600 * 1000);
      expect(graceEnds).toBeLessThanOrEqual(24 * 3600 * 1000);

      await app.api.post('/referrals', { campaignId, referrerId: 'rosa' });
      const [request] = await receiver.waitFor((r) => r.path === hookPath);
      expect(request.headers['webhook-signature'].split(' ')).toHaveLength(2);
      expect(verified(newSecret, request).event).toBe('REFERRAL_CREATED');
      expect(verified(oldSecret, request).event).toBe('REFERRAL_CREATED');
      expect(() => verified(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, request)).toThrow();
      expect(JSON.stringify((await app.api.get(`/webhooks/${webhook.id}`)).body)).not.toContain(newSecret.slice(6));
    });
  });
});
