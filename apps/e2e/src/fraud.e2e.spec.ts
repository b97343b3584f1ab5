import { randomBytes } from 'node:crypto';
import { type ProcessStack } from '@ris/stack';
import { ApiClient, createTestApp, e2eStack, eventually, waitForEvents, type TestApp } from '@ris/testing';
import { ownStack, removeOwnStack } from './support/own-stack';
import { convert, createCampaign, createReferral } from './support/referral-scenario';

const unique = () => randomBytes(4).toString('hex');
/** A documentation-range IP no other test uses. */
const ip = () => `198.51.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

describe('fraud detection', () => {
  let app: TestApp;
  let other: TestApp;
  /** Flags at 10: any single rule flags, so each rule's verdict shows in the response. */
  let sensitive: { id: string };

  beforeAll(async () => {
    [app, other] = await Promise.all([createTestApp('fraud'), createTestApp('fraud other')]);
    sensitive = await createCampaign(app, { name: 'Sensitive', fraud: { flagThreshold: 10 } });
  });

  const expectFlagged = (res: { warning: string | null; reasons: string[] | null; riskScore: number | null }, reason: string) => {
    expect(res.reasons).toContain(reason);
    expect(res.riskScore).toBeGreaterThanOrEqual(10);
    expect(res.warning).toMatch(/flagged for review/);
  };
  const expectClean = (res: { warning: string | null; reasons: string[] | null; riskScore: number | null }) =>
    expect([res.warning, res.reasons, res.riskScore]).toEqual([null, null, null]);

  describe('each rule fires on a crafted case and stays silent on a clean one', () => {
    it('a clean referral and conversion carry no fraud fields', async () => {
      const referral = await createReferral(app, sensitive.id, `clean-${unique()}`, { referrerEmail: 'clean@example.com', ip: ip(), deviceId: unique() });
      expectClean(referral);
      const conversion = await convert(app, referral.referralCode, `clean-referee-${unique()}`, { ip: ip(), deviceId: unique(), email: 'someone@example.org' });
      expectClean(conversion);
      expect(conversion.conversionStatus).toBe('CONVERTED');
    });

    it('SELF_REFERRAL: the referee is the referrer (referral and conversion)', async () => {
      const user = `self-${unique()}`;
      const referral = await app.api.post('/referrals', { campaignId: sensitive.id, referrerId: user, refereeId: user });
      expect(referral.status).toBe(201);
      expect(referral.body).toMatchObject({ riskScore: 100, reasons: ['SELF_REFERRAL'], warning: expect.stringContaining('the referee is the referrer') });
      expect((await app.api.get(`/referrals/${referral.body.referralCode}`)).body.referral.isFlagged).toBe(true);
      const [event] = await waitForEvents('referral.created', (e) => e.data.referralId === referral.body.referralId, 1);
      expect(event.data).toMatchObject({ isFlagged: true, riskScore: 100, warning: referral.body.warning, reasons: ['SELF_REFERRAL'] });

      const conversion = await convert(app, referral.body.referralCode, user);
      expectFlagged(conversion, 'SELF_REFERRAL');
    });

    it('SELF_REFERRAL and EMAIL_ALIAS: the referee uses the referrer\'s email, as is or dotted and plus-aliased', async () => {
      const owner = `mail-${unique()}`;
      const { referralCode } = await createReferral(app, sensitive.id, owner, { referrerEmail: `${owner}@example.com` });
      expectFlagged(await convert(app, referralCode, `same-${unique()}`, { email: `${owner.toUpperCase()}@Example.com` }), 'SELF_REFERRAL');
      const alias = `${owner.slice(0, 2)}.${owner.slice(2)}+promo@example.com`;
      const aliased = await convert(app, referralCode, `alias-${unique()}`, { email: alias });
      expectFlagged(aliased, 'EMAIL_ALIAS');
      expect(aliased.reasons).not.toContain('SELF_REFERRAL');
      expectClean(await convert(app, referralCode, `other-${unique()}`, { email: `not-${owner}@example.com` }));
    });

    it("SAME_IP and SAME_DEVICE: the referee converts from the referrer's IP or device", async () => {
      const address = ip();
      const device = `dev-${unique()}`;
      const { referralCode } = await createReferral(app, sensitive.id, `shared-${unique()}`, { ip: address, deviceId: device });
      const sameIp = await convert(app, referralCode, `ip-${unique()}`, { ip: address });
      expectFlagged(sameIp, 'SAME_IP');
      expect(sameIp.reasons).toEqual(['SAME_IP']);
      expect(sameIp.riskScore).toBe(35);
      const sameDevice = await convert(app, referralCode, `device-${unique()}`, { deviceId: device });
      expect(sameDevice).toMatchObject({ reasons: ['SAME_DEVICE'], riskScore: 60 });
      expectClean(await convert(app, referralCode, `elsewhere-${unique()}`, { ip: ip(), deviceId: `dev-${unique()}` }));
    });

    it('IP_VELOCITY: the sixth referral from one IP within the hour', async () => {
      const address = ip();
      for (let i = 0; i < 5; i += 1) expectClean(await createReferral(app, sensitive.id, `ipv-${unique()}`, { ip: address }));
      const sixth = await createReferral(app, sensitive.id, `ipv-${unique()}`, { ip: address });
      expectFlagged(sixth, 'IP_VELOCITY');
      expect(sixth.warning).toContain('5 other referrals came from the same IP address');
    });

    it('DEVICE_VELOCITY: the fourth referral from one device within the hour', async () => {
      const device = `dev-${unique()}`;
      for (let i = 0; i < 3; i += 1) expectClean(await createReferral(app, sensitive.id, `dv-${unique()}`, { deviceId: device }));
      expectFlagged(await createReferral(app, sensitive.id, `dv-${unique()}`, { deviceId: device }), 'DEVICE_VELOCITY');
    });

    it('REFERRER_VELOCITY: the eleventh conversion of one referrer within the hour', async () => {
      const { referralCode } = await createReferral(app, sensitive.id, `busy-${unique()}`);
      for (let i = 0; i < 10; i += 1) expectClean(await convert(app, referralCode, `busy-referee-${unique()}`));
      expectFlagged(await convert(app, referralCode, `busy-referee-${unique()}`), 'REFERRER_VELOCITY');
    });

    it('FAST_CONVERSION: a conversion seconds after the click', async () => {
      const { referralCode } = await createReferral(app, sensitive.id, `fast-${unique()}`);
      const referee = `fast-referee-${unique()}`;
      await app.api.post('/clicks', { referralCode, refereeId: referee });
      // The click's signal reaches the fraud service without the click waiting for it.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const fast = await convert(app, referralCode, referee);
      expectFlagged(fast, 'FAST_CONVERSION');
      // Without a click (or long after one) nothing fires.
      expectClean(await convert(app, referralCode, `slow-referee-${unique()}`));
    });

    it('DISPOSABLE_EMAIL: a throw-away address, at conversion and at referral', async () => {
      const { referralCode } = await createReferral(app, sensitive.id, `disp-${unique()}`);
      expectFlagged(await convert(app, referralCode, `disp-referee-${unique()}`, { email: 'someone@mailinator.com' }), 'DISPOSABLE_EMAIL');
      expectFlagged(await createReferral(app, sensitive.id, `disp-${unique()}`, { referrerEmail: 'x@yopmail.com' }), 'DISPOSABLE_EMAIL');
      expectClean(await convert(app, referralCode, `disp-referee-${unique()}`, { email: 'someone@gmail.com' }));
    });

    it('MULTIPLE_CODES: one referee converting through codes of two campaigns', async () => {
      const second = await createCampaign(app, { name: 'Second', fraud: { flagThreshold: 10 } });
      const referee = `hopper-${unique()}`;
      const first = await createReferral(app, sensitive.id, `mc-a-${unique()}`);
      const other = await createReferral(app, second.id, `mc-b-${unique()}`);
      expectClean(await convert(app, first.referralCode, referee));
      expectFlagged(await convert(app, other.referralCode, referee), 'MULTIPLE_CODES');
    });
  });

  describe('review', () => {
    let guarded: { id: string };
    beforeAll(async () => {
      guarded = await createCampaign(app, { name: 'Guarded', refereeReward: { amount: 4, fulfillmentType: 'COUPON_CODE' } });
    });

    /** A self-referral conversion: flagged at the default threshold (50). */
    async function flaggedConversion() {
      const user = `cheat-${unique()}`;
      const { referralCode } = await createReferral(app, guarded.id, user, { ip: '203.0.113.200' });
      const res = await convert(app, referralCode, user);
      const flags = (await app.api.get('/fraud/flags?status=OPEN&limit=100')).body.flags;
      return { res, user, referralCode, flag: flags.find((f: { conversionId: string }) => f.conversionId === res.conversionId) };
    }

    it('holds a flagged conversion: FLAGGED, rewards PENDING and not claimable, an OPEN flag, conversion.flagged', async () => {
      const { res, user, referralCode, flag } = await flaggedConversion();
      expect(res).toMatchObject({ status: 'COMPLETED', conversionStatus: 'FLAGGED', riskScore: 100, reasons: ['SELF_REFERRAL'], rewardCreated: true });
      expect(res.warning).toEqual(expect.any(String));
      expect(res.rewards.map((r: { status: string }) => r.status)).toEqual(['PENDING', 'PENDING']);
      const claim = await app.api.post(`/rewards/${res.rewards[0].rewardId}/claim`);
      expect(claim.status).toBe(422);
      expect(claim.body.error).toMatchObject({ code: 'REWARD_NOT_CLAIMABLE', details: { status: 'PENDING' } });
      expect(flag).toEqual({
        id: expect.stringMatching(/^flg_/),
        type: 'CONVERSION',
        status: 'OPEN',
        campaignId: guarded.id,
        referralId: res.referralId,
        referralCode,
        conversionId: res.conversionId,
        referrerId: user,
        refereeId: user,
        riskScore: 100,
        reasons: ['SELF_REFERRAL'],
        warning: res.warning,
        note: null,
        createdAt: expect.any(String),
        resolvedAt: null,
        resolvedBy: null,
      });
      const [event] = await waitForEvents('conversion.flagged', (e) => e.data.conversionId === res.conversionId, 1);
      expect(event.data).toMatchObject({ status: 'FLAGGED', isFlagged: true, riskScore: 100, reasons: ['SELF_REFERRAL'], level: 1 });
    });

    it('APPROVE converts it and approves its held rewards, which can then be claimed', async () => {
      const { res, flag } = await flaggedConversion();
      const resolved = await app.api.post(`/fraud/flags/${flag.id}/resolve`, { decision: 'APPROVE', note: 'known customer' });
      expect(resolved.status).toBe(200);
      // Resolved with an API key: no operator decided.
      expect(resolved.body.flag).toMatchObject({ id: flag.id, status: 'APPROVED', note: 'known customer', resolvedAt: expect.any(String), resolvedBy: null });
      const records = (await app.api.get(`/conversions?referralCode=${flag.referralCode}`)).body.conversions;
      expect(records.map((r: { status: string }) => r.status)).toEqual(['CONVERTED']);
      for (const reward of res.rewards) expect((await app.api.get(`/rewards/${reward.rewardId}`)).body.reward.status).toBe('APPROVED');
      const claim = await app.api.post(`/rewards/${res.rewards[0].rewardId}/claim`);
      expect(claim.status).toBe(200);
      expect(await waitForEvents('reward.approved', (e) => e.data.rewardId === res.rewards[0].rewardId, 1)).toHaveLength(1);

      const again = await app.api.post(`/fraud/flags/${flag.id}/resolve`, { decision: 'REJECT' });
      expect(again.status).toBe(409);
      expect(again.body.error).toMatchObject({ code: 'INVALID_TRANSITION', details: { status: 'APPROVED' } });
    });

    it('REJECT cancels its rewards and makes it REJECTED, a status of its own that the list filters by', async () => {
      const { res, flag } = await flaggedConversion();
      const resolved = await app.api.post(`/fraud/flags/${flag.id}/resolve`, { decision: 'REJECT' });
      expect(resolved.body.flag).toMatchObject({ status: 'REJECTED', note: null });
      for (const reward of res.rewards) expect((await app.api.get(`/rewards/${reward.rewardId}`)).body.reward.status).toBe('CANCELLED');
      const records = (await app.api.get(`/conversions?referralCode=${flag.referralCode}`)).body.conversions;
      expect(records.map((r: { status: string }) => r.status)).toEqual(['REJECTED']);
      const rejected = (await app.api.get('/conversions?status=REJECTED&limit=100')).body.conversions.map((c: { conversionId: string }) => c.conversionId);
      expect(rejected).toContain(flag.conversionId);
      expect((await app.api.get('/conversions?status=FLAGGED&limit=100')).body.conversions.map((c: { conversionId: string }) => c.conversionId)).not.toContain(flag.conversionId);
      expect((await app.api.post(`/rewards/${res.rewards[0].rewardId}/claim`)).status).toBe(422);
      expect(await waitForEvents('reward.cancelled', (e) => e.data.rewardId === res.rewards[0].rewardId, 1)).toHaveLength(1);
    });

    it("APPROVE on a referral's flag clears isFlagged", async () => {
      const user = `selfref-${unique()}`;
      const referral = await createReferral(app, guarded.id, user, { refereeId: user });
      const flag = (await app.api.get('/fraud/flags?limit=100')).body.flags.find((f: { referralId: string; type: string }) => f.referralId === referral.referralId && f.type === 'REFERRAL');
      expect(flag).toMatchObject({ status: 'OPEN', conversionId: null, refereeId: user });
      await app.api.post(`/fraud/flags/${flag.id}/resolve`, { decision: 'APPROVE' });
      expect((await app.api.get(`/referrals/${referral.referralCode}`)).body.referral.isFlagged).toBe(false);
    });

    it('lists flags newest first with pagination and a status filter', async () => {
      const page = await app.api.get('/fraud/flags?limit=2');
      expect(page.status).toBe(200);
      expect(page.body.flags).toHaveLength(2);
      expect(page.body.pagination).toMatchObject({ page: 1, limit: 2 });
      expect(page.body.pagination.totalItems).toBeGreaterThan(2);
      const times = page.body.flags.map((f: { createdAt: string }) => f.createdAt);
      expect([...times].sort().reverse()).toEqual(times);
      for (const status of ['OPEN', 'APPROVED', 'REJECTED']) {
        const res = await app.api.get(`/fraud/flags?status=${status}&limit=100`);
        expect(res.body.flags.length).toBeGreaterThan(0);
        expect(res.body.flags.every((f: { status: string }) => f.status === status)).toBe(true);
      }
      expect((await app.api.get('/fraud/flags?status=CLOSED')).status).toBe(400);
    });

    it('answers 404 for unknown and foreign flags, 400 for a bad decision', async () => {
      const { flag } = await flaggedConversion();
      expect((await app.api.post('/fraud/flags/flg_nope/resolve', { decision: 'APPROVE' })).status).toBe(404);
      expect((await other.api.post(`/fraud/flags/${flag.id}/resolve`, { decision: 'APPROVE' })).status).toBe(404);
      expect((await other.api.get('/fraud/flags')).body.flags).toEqual([]);
      for (const body of [{ decision: 'MAYBE' }, {}, { decision: 'APPROVE', note: 5 }]) {
        const res = await app.api.post(`/fraud/flags/${flag.id}/resolve`, body);
        expect([body, res.status]).toEqual([body, 400]);
      }
      expect((await app.api.get('/fraud/flags?status=OPEN&limit=100')).body.flags.map((f: { id: string }) => f.id)).toContain(flag.id);
    });
  });

  it('documents the review endpoints with their response schemas', async () => {
    const doc = (await new ApiClient(e2eStack().gatewayUrl).get('/api/v1/openapi.json')).body;
    expect(doc.paths['/api/v1/fraud/flags'].get.responses['200'].content['application/json'].schema).toBeDefined();
    const resolve = doc.paths['/api/v1/fraud/flags/{flagId}/resolve'].post;
    expect(resolve.responses['200'].content['application/json'].schema).toBeDefined();
    expect(resolve.responses['409']).toBeDefined();
    expect(doc.components.schemas.RecordConversionResponse.properties).toHaveProperty('fraudCheck');
  });
});

// A small stack of its own (gateway, referral, fraud and reward services,
// own databases and stream) so the fraud service can be stopped without
// disturbing the other tests; its recovery pass runs every second.
describe('fraud service down', () => {
  let stack: ProcessStack;
  let api: ApiClient;

  beforeAll(async () => {
    stack = ownStack('fd', {
      apps: ['referral-service', 'fraud-service', 'reward-service', 'gateway'],
      appEnv: { 'referral-service': { RECOVERY_INTERVAL_MS: '1000' } },
    });
    await stack.start();
    const created = await new ApiClient(`${stack.gatewayUrl}/admin/v1`, stack.options.adminToken).post('/apps', { name: 'fraud down' });
    api = new ApiClient(`${stack.gatewayUrl}/api/v1`, created.body.apiKey);
  }, 90_000);

  afterAll(() => removeOwnStack(stack));

  it('records conversions unscored with rewards held, and scores them when the fraud service is back', async () => {
    const campaignId = (await api.post('/campaigns', { name: 'Outage', referrerReward: { amount: 10, fulfillmentType: 'DISCOUNT_CODE' } })).body.campaign.id;
    const honest = (await api.post('/referrals', { campaignId, referrerId: 'honest' })).body.referralCode;
    const cheater = (await api.post('/referrals', { campaignId, referrerId: 'cheater' })).body.referralCode;

    await stack.stopApp('fraud-service');
    const clean = await api.post('/conversions', { referralCode: honest, refereeId: 'new-customer' });
    expect(clean.status).toBe(201);
    expect(clean.body).toMatchObject({ conversionStatus: 'CONVERTED', fraudCheck: 'DEFERRED', riskScore: null, rewardCreated: true, rewardAmount: 10 });
    expect(clean.body.rewards).toEqual([expect.objectContaining({ status: 'PENDING' })]);
    // Held: no reward is approved, let alone claimed, before it is scored.
    expect((await api.post(`/rewards/${clean.body.rewards[0].rewardId}/claim`)).status).toBe(422);
    const self = await api.post('/conversions', { referralCode: cheater, refereeId: 'cheater' });
    expect(self.body).toMatchObject({ conversionStatus: 'CONVERTED', fraudCheck: 'DEFERRED' });
    const selfReferral = await api.post('/referrals', { campaignId, referrerId: 'sneaky', refereeId: 'sneaky' });
    expect(selfReferral.status).toBe(201);
    expect(selfReferral.body.riskScore).toBeNull();

    await stack.startApp('fraud-service');
    const reward = await eventually(
      async () => (await api.get(`/rewards/${clean.body.rewards[0].rewardId}`)).body.reward,
      (r) => r.status === 'APPROVED',
    );
    expect(reward.status).toBe('APPROVED');
    expect((await api.post(`/rewards/${clean.body.rewards[0].rewardId}/claim`)).status).toBe(200);

    const flagged = await eventually(
      async () => (await api.get(`/conversions?referralCode=${cheater}`)).body.conversions[0],
      (c) => c.status === 'FLAGGED',
    );
    expect(flagged).toMatchObject({ status: 'FLAGGED', isFlagged: true });
    expect((await api.get(`/rewards/${self.body.rewards[0].rewardId}`)).body.reward.status).toBe('PENDING');
    const flags = (await api.get('/fraud/flags?status=OPEN')).body.flags;
    expect(flags.map((f: { conversionId: string | null; type: string }) => [f.type, f.conversionId])).toEqual(
      expect.arrayContaining([['CONVERSION', self.body.conversionId]]),
    );
    const referral = await eventually(
      async () => (await api.get(`/referrals/${selfReferral.body.referralCode}`)).body.referral,
      (r) => r.isFlagged,
    );
    expect(referral.isFlagged).toBe(true);
  });
});
