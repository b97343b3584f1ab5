import { createTestApp, waitForEvents, type TestApp } from '@ris/testing';

const reward = { amount: 10, fulfillmentType: 'DISCOUNT_CODE' };
const CODE = /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{8}$/;

describe('referrals and clicks', () => {
  let app: TestApp;
  let other: TestApp;
  let campaignId: string;

  beforeAll(async () => {
    [app, other] = await Promise.all([createTestApp('referrals'), createTestApp('referrals other')]);
    campaignId = (await app.api.post('/campaigns', { name: 'Referrals', referrerReward: reward })).body.campaign.id;
  });

  it('creates a referral code (201), then returns the same one (200)', async () => {
    const first = await app.api.post('/referrals', { campaignId, referrerId: 'alice', referrerEmail: 'alice@example.com' });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      referralCode: expect.stringMatching(CODE),
      referralId: expect.stringMatching(/^ref_/),
      status: 'PENDING',
      warning: null,
      reasons: null,
      riskScore: null,
    });
    const again = await app.api.post('/referrals', { campaignId, referrerId: 'alice' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });

  it('gets a referral by its code, case-insensitively', async () => {
    const created = await app.api.post('/referrals', { campaignId, referrerId: 'bob', refereeId: 'carol' });
    const code: string = created.body.referralCode;
    const res = await app.api.get(`/referrals/${code.toLowerCase()}`);
    expect(res.status).toBe(200);
    expect(res.body.referral).toEqual({
      id: created.body.referralId,
      referralCode: code,
      referrerId: 'bob',
      refereeId: 'carol',
      status: 'PENDING',
      level: 1,
      rewardAmount: 0,
      conversions: 0,
      isFlagged: false,
      createdAt: expect.stringMatching(/Z$/),
      Campaign: { id: campaignId, name: 'Referrals', status: 'ACTIVE' },
    });
  });

  it('gives concurrent first requests of one referrer one referral', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () => app.api.post('/referrals', { campaignId, referrerId: 'racer' })),
    );
    expect(new Set(results.map((r) => r.body.referralId)).size).toBe(1);
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 200)).toHaveLength(9);
  });

  it('refuses bad bodies, unknown campaigns and inactive campaigns', async () => {
    expect((await app.api.post('/referrals', { campaignId })).status).toBe(400);
    expect((await app.api.post('/referrals', { campaignId: '', referrerId: 'x' })).status).toBe(400);
    expect((await app.api.post('/referrals', { campaignId, referrerId: 7 })).status).toBe(400);
    const missing = await app.api.post('/referrals', { campaignId: 'cmp_missing', referrerId: 'x' });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');

    const paused = (await app.api.post('/campaigns', { name: 'Paused', referrerReward: reward, status: 'PAUSED' })).body.campaign.id;
    const inactive = await app.api.post('/referrals', { campaignId: paused, referrerId: 'x' });
    expect(inactive.status).toBe(422);
    expect(inactive.body.error.code).toBe('CAMPAIGN_INACTIVE');
  });

  it('answers 404 for an unknown code', async () => {
    const res = await app.api.get('/referrals/ZZZZZZZZ');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  it('records clicks', async () => {
    const { referralCode } = (await app.api.post('/referrals', { campaignId, referrerId: 'clicker' })).body;
    const res = await app.api.post('/clicks', { referralCode, refereeId: 'visitor-1', ip: '203.0.113.5', userAgent: 'test' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      clickId: expect.stringMatching(/^clk_/),
      referralCode,
      clickedAt: expect.stringMatching(/Z$/),
    });
    const second = await app.api.post('/clicks', { referralCode: referralCode.toLowerCase() });
    expect(second.status).toBe(200);
    expect(second.body.clickId).not.toBe(res.body.clickId);
    expect((await app.api.post('/clicks', { referralCode: 'ZZZZZZZZ' })).status).toBe(404);
    expect((await app.api.post('/clicks', {})).status).toBe(400);

    const events = await waitForEvents('referral.clicked', (e) => e.data.clickId === res.body.clickId, 1);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ appId: app.appId, data: { referralCode, refereeId: 'visitor-1', referrerId: 'clicker' } });
  });

  it('answers clicks that arrive together (one call to the service) each on its own, across apps', async () => {
    const codes = await Promise.all(
      ['batch-a', 'batch-b'].map(async (referrerId) => (await app.api.post('/referrals', { campaignId, referrerId })).body.referralCode as string),
    );
    const otherCampaign = (await other.api.post('/campaigns', { name: 'Other', referrerReward: reward })).body.campaign.id;
    const otherCode: string = (await other.api.post('/referrals', { campaignId: otherCampaign, referrerId: 'batch-c' })).body.referralCode;
    const before = (await app.api.get(`/stats?campaignId=${campaignId}`)).body.totalClicks as number;
    const sent = [
      ...Array.from({ length: 12 }, (_, i) => ({ client: app, referralCode: codes[i % 2], refereeId: `crowd-${i}` })),
      { client: app, referralCode: 'ZZZZZZZZ' },
      { client: app, referralCode: otherCode },
      { client: other, referralCode: otherCode },
      { client: other, referralCode: codes[0] },
    ];
    const answers = await Promise.all(sent.map(({ client, ...body }) => client.api.post('/clicks', body)));
    expect(answers.map((a) => a.status)).toEqual([...Array.from({ length: 12 }, () => 200), 404, 404, 200, 404]);
    answers.slice(0, 12).forEach((a, i) => expect(a.body.referralCode).toBe(codes[i % 2]));
    expect(answers[14].body.referralCode).toBe(otherCode);
    expect(answers[12].body.error).toMatchObject({ code: 'NOT_FOUND', details: { referralCode: 'ZZZZZZZZ' } });
    expect(new Set(answers.filter((a) => a.status === 200).map((a) => a.body.clickId)).size).toBe(13);
    expect((await app.api.get(`/stats?campaignId=${campaignId}`)).body.totalClicks).toBe(before + 12);
    const events = await waitForEvents('referral.clicked', (e) => e.appId === app.appId && String(e.data.refereeId).startsWith('crowd-'), 12);
    expect(new Set(events.map((e) => e.data.refereeId)).size).toBe(12);
  });

  it("keeps apps apart: another app's code is unknown to it", async () => {
    const { referralCode } = (await app.api.post('/referrals', { campaignId, referrerId: 'secret' })).body;
    expect((await other.api.get(`/referrals/${referralCode}`)).status).toBe(404);
    expect((await other.api.post('/clicks', { referralCode })).status).toBe(404);
    expect((await other.api.post('/referrals', { campaignId, referrerId: 'intruder' })).status).toBe(404);
  });

  describe('Idempotency-Key', () => {
    it('replays the first response for the same key and body', async () => {
      const headers = { 'idempotency-key': `click-${Date.now()}` };
      const { referralCode } = (await app.api.post('/referrals', { campaignId, referrerId: 'idem' })).body;
      const first = await app.api.post('/clicks', { referralCode }, headers);
      const replay = await app.api.post('/clicks', { referralCode }, headers);
      expect(first.status).toBe(200);
      expect(replay.status).toBe(200);
      expect(replay.body).toEqual(first.body);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(first.headers.get('idempotent-replayed')).toBeNull();

      const reused = await app.api.post('/clicks', { referralCode, refereeId: 'someone-else' }, headers);
      expect(reused.status).toBe(409);
      expect(reused.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');

      // Keys are per app: the same key in another app is a different request.
      const otherCampaign = (await other.api.post('/campaigns', { name: 'o', referrerReward: reward })).body.campaign.id;
      const otherCode = (await other.api.post('/referrals', { campaignId: otherCampaign, referrerId: 'o' })).body.referralCode;
      const otherClick = await other.api.post('/clicks', { referralCode: otherCode }, headers);
      expect(otherClick.status).toBe(200);
      expect(otherClick.headers.get('idempotent-replayed')).toBeNull();
    });

    it('replays errors too, and runs concurrent duplicates once', async () => {
      const headers = { 'idempotency-key': `err-${Date.now()}` };
      const first = await app.api.post('/clicks', { referralCode: 'ZZZZZZZZ' }, headers);
      const replay = await app.api.post('/clicks', { referralCode: 'ZZZZZZZZ' }, headers);
      expect(first.status).toBe(404);
      expect(replay.status).toBe(404);
      expect(replay.body).toEqual(first.body);

      const { referralCode } = (await app.api.post('/referrals', { campaignId, referrerId: 'concurrent' })).body;
      const key = { 'idempotency-key': `conc-${Date.now()}` };
      const results = await Promise.all(Array.from({ length: 8 }, () => app.api.post('/clicks', { referralCode }, key)));
      const clickIds = new Set(results.filter((r) => r.status === 200).map((r) => r.body.clickId));
      expect(clickIds.size).toBe(1);
      for (const r of results) expect([200, 409]).toContain(r.status);
    });

    it('refuses an invalid key', async () => {
      const res = await app.api.post('/clicks', { referralCode: 'ZZZZZZZZ' }, { 'idempotency-key': 'x'.repeat(300) });
      expect(res.status).toBe(400);
    });
  });

  it('publishes referral.created exactly once per referral, even when the request is retried', async () => {
    const body = { campaignId, referrerId: 'evented', referrerUsername: 'Eve' };
    const key = { 'idempotency-key': `evt-${Date.now()}` };
    const first = await app.api.post('/referrals', body, key);
    await app.api.post('/referrals', body, key);
    await app.api.post('/referrals', body);
    await Promise.all([app.api.post('/referrals', body), app.api.post('/referrals', body)]);
    const referralId = first.body.referralId;
    const events = await waitForEvents('referral.created', (e) => e.data.referralId === referralId, 1);
    // Give a stray duplicate time to show up before counting.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const settled = await waitForEvents('referral.created', (e) => e.data.referralId === referralId, 2, 500);
    expect(events).toHaveLength(1);
    expect(settled).toHaveLength(1);
    expect(settled[0]).toMatchObject({
      type: 'referral.created',
      appId: app.appId,
      data: { referralId, referralCode: first.body.referralCode, campaignId, referrerId: 'evented', riskScore: null, warning: null },
    });
  });
});
