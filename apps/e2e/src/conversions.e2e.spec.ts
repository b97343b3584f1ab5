import { ApiClient, createTestApp, e2eStack, waitForEvents, type TestApp } from '@ris/testing';
import { convert, createCampaign, createReferral, serviceDatabase } from './support/referral-scenario';

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('conversions', () => {
  let app: TestApp;
  let other: TestApp;
  let campaign: { id: string; name: string };

  beforeAll(async () => {
    [app, other] = await Promise.all([createTestApp('conversions'), createTestApp('conversions other')]);
    campaign = await createCampaign(app, { name: 'Conversions' });
  });

  describe('POST /conversions', () => {
    it('records a conversion, completes the referral and creates an approved reward', async () => {
      const { referralCode, referralId } = await createReferral(app, campaign.id, 'alice');
      const res = await app.api.post('/conversions', { referralCode: referralCode.toLowerCase(), refereeId: 'bob', amount: 49.9, metadata: { plan: 'pro' } });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        success: true,
        referralId,
        conversionId: expect.stringMatching(/^conv_/),
        rewardAmount: 10,
        rewardCreated: true,
        status: 'COMPLETED',
        conversionStatus: 'CONVERTED',
        refereeId: 'bob',
        referrerId: 'alice',
        warning: null,
        reasons: null,
        riskScore: null,
        fraudCheck: 'DONE',
        rewards: [{ rewardId: expect.stringMatching(/^rwd_/), userId: 'alice', side: 'REFERRER', level: 1, amount: 10, status: 'APPROVED' }],
        upline: [],
      });

      const referral = await app.api.get(`/referrals/${referralCode}`);
      expect(referral.body.referral).toMatchObject({ status: 'COMPLETED', rewardAmount: 10, level: 1 });
      const reward = await app.api.get(`/rewards/${res.body.rewards[0].rewardId}`);
      expect(reward.body.reward).toMatchObject({
        userId: 'alice',
        conversionId: res.body.conversionId,
        referralId,
        campaignId: campaign.id,
        status: 'APPROVED',
        amount: 10,
      });

      const list = await app.api.get(`/conversions?referralCode=${referralCode}`);
      expect(list.body.conversions).toEqual([
        {
          id: res.body.conversionId,
          conversionId: res.body.conversionId,
          referralId,
          referralCode,
          originalReferralCode: referralCode,
          referrerId: 'alice',
          refereeId: 'bob',
          status: 'CONVERTED',
          rewardAmount: 10,
          level: 1,
          amount: 49.9,
          isFlagged: false,
          convertedAt: expect.stringMatching(TIMESTAMP),
          createdAt: expect.stringMatching(TIMESTAMP),
          Campaign: { id: campaign.id, name: 'Conversions' },
        },
      ]);

      const [created] = await waitForEvents('conversion.created', (e) => e.data.conversionId === res.body.conversionId, 1);
      expect(created).toMatchObject({
        appId: app.appId,
        data: {
          conversionId: res.body.conversionId,
          referralId,
          referralCode,
          originalReferralCode: referralCode,
          campaignId: campaign.id,
          referrerId: 'alice',
          refereeId: 'bob',
          level: 1,
          status: 'CONVERTED',
          amount: 49.9,
          rewardAmount: 10,
          isFlagged: false,
          riskScore: null,
          warning: null,
          convertedAt: expect.stringMatching(TIMESTAMP),
        },
      });
      const rewardId = res.body.rewards[0].rewardId;
      const [rewardCreated] = await waitForEvents('reward.created', (e) => e.data.rewardId === rewardId, 1);
      expect(rewardCreated.data).toMatchObject({ referralId, userId: 'alice', amount: 10, conversionId: res.body.conversionId, side: 'REFERRER', level: 1 });
      expect(await waitForEvents('reward.approved', (e) => e.data.rewardId === rewardId, 1)).toHaveLength(1);
    });

    it('follows the referee through the funnel: PENDING, CLICKED, CONVERTED', async () => {
      const { referralCode } = await createReferral(app, campaign.id, 'funnel-owner', { refereeId: 'funnel-referee' });
      const records = async () => (await app.api.get(`/conversions?referralCode=${referralCode}`)).body.conversions;
      const [pending] = await records();
      expect(pending).toMatchObject({ status: 'PENDING', refereeId: 'funnel-referee', level: 1, convertedAt: null, rewardAmount: 0 });

      await app.api.post('/clicks', { referralCode, refereeId: 'funnel-referee' });
      const [clicked] = await records();
      expect(clicked).toMatchObject({ id: pending.id, status: 'CLICKED' });

      // A click without the referee id changes nothing; one for a new referee starts their record at CLICKED.
      await app.api.post('/clicks', { referralCode });
      await app.api.post('/clicks', { referralCode, refereeId: 'walk-in' });
      expect((await records()).map((r: { refereeId: string; status: string }) => [r.refereeId, r.status]).sort()).toEqual([
        ['funnel-referee', 'CLICKED'],
        ['walk-in', 'CLICKED'],
      ]);

      // The conversion replaces the referee's funnel record (one record per referee and level).
      const converted = await convert(app, referralCode, 'funnel-referee');
      const mine = async () => (await records()).filter((r: { refereeId: string }) => r.refereeId === 'funnel-referee');
      expect(await mine()).toEqual([
        expect.objectContaining({ id: converted.conversionId, status: 'CONVERTED', rewardAmount: 10, createdAt: pending.createdAt, convertedAt: expect.stringMatching(TIMESTAMP) }),
      ]);
      // A click after the conversion does not move it back.
      await app.api.post('/clicks', { referralCode, refereeId: 'funnel-referee' });
      expect((await mine()).map((r: { status: string }) => r.status)).toEqual(['CONVERTED']);
    });

    it('refuses a second conversion of a referee in the campaign (409 ALREADY_CONVERTED), even concurrently', async () => {
      const first = await createReferral(app, campaign.id, 'twice-1');
      const second = await createReferral(app, campaign.id, 'twice-2');
      await convert(app, first.referralCode, 'loyal');
      for (const code of [first.referralCode, second.referralCode]) {
        const res = await app.api.post('/conversions', { referralCode: code, refereeId: 'loyal' });
        expect(res.status).toBe(409);
        expect(res.body.error).toMatchObject({ code: 'ALREADY_CONVERTED', details: { refereeId: 'loyal', campaignId: campaign.id } });
      }

      const racers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => app.api.post('/conversions', { referralCode: i % 2 ? first.referralCode : second.referralCode, refereeId: 'racer' })),
      );
      expect(racers.filter((r) => r.status === 201)).toHaveLength(1);
      expect(racers.filter((r) => r.status === 409).every((r) => r.body.error.code === 'ALREADY_CONVERTED')).toBe(true);
      expect(racers.filter((r) => r.status === 409)).toHaveLength(9);
      const records = await app.api.get(`/conversions?campaignId=${campaign.id}&status=CONVERTED&limit=100`);
      expect(records.body.conversions.filter((r: { refereeId: string }) => r.refereeId === 'racer')).toHaveLength(1);
    });

    it('replays an Idempotency-Key retry instead of calling it a second conversion', async () => {
      const { referralCode } = await createReferral(app, campaign.id, 'idem-owner');
      const headers = { 'idempotency-key': `conv-${Date.now()}` };
      const first = await app.api.post('/conversions', { referralCode, refereeId: 'idem-referee' }, headers);
      const replay = await app.api.post('/conversions', { referralCode, refereeId: 'idem-referee' }, headers);
      expect(first.status).toBe(201);
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(first.body);
    });

    it('answers 404 for an unknown code, 422 for an inactive campaign and 400 for bad bodies', async () => {
      const missing = await app.api.post('/conversions', { referralCode: 'ZZZZZZZZ', refereeId: 'x' });
      expect(missing.status).toBe(404);
      expect(missing.body.error.code).toBe('NOT_FOUND');

      const paused = await createCampaign(app, { name: 'Paused later' });
      const { referralCode } = await createReferral(app, paused.id, 'pauser');
      await app.api.patch(`/campaigns/${paused.id}`, { status: 'PAUSED' });
      const inactive = await app.api.post('/conversions', { referralCode, refereeId: 'too-late' });
      expect(inactive.status).toBe(422);
      expect(inactive.body.error.code).toBe('CAMPAIGN_INACTIVE');

      for (const [body, field] of [
        [{ refereeId: 'x' }, 'body.referralCode'],
        [{ referralCode, refereeId: '' }, 'body.refereeId'],
        [{ referralCode }, 'body.refereeId'],
        [{ referralCode, refereeId: 'x', amount: -1 }, 'body.amount'],
        [{ referralCode, refereeId: 'x', amount: '12' }, 'body.amount'],
        [{ referralCode, refereeId: 'x', metadata: 'plan=pro' }, 'body.metadata'],
        [{ referralCode, refereeId: 'x', metadata: ['pro'] }, 'body.metadata'],
      ] as const) {
        const res = await app.api.post('/conversions', body);
        expect([field, res.status, res.body.error.code]).toEqual([field, 400, 'VALIDATION_ERROR']);
        expect(res.body.error.details.issues.map((i: { field: string }) => i.field)).toContain(field);
      }
    });

    it('rewards the referee too on a double-sided campaign', async () => {
      const doubleSided = await createCampaign(app, { name: 'Double', refereeReward: { amount: 5, fulfillmentType: 'COUPON_CODE' } });
      const { referralCode } = await createReferral(app, doubleSided.id, 'ds-referrer');
      const res = await convert(app, referralCode, 'ds-referee');
      expect(res.rewardAmount).toBe(10);
      expect(res.rewards).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ userId: 'ds-referrer', side: 'REFERRER', amount: 10, status: 'APPROVED' }),
          expect.objectContaining({ userId: 'ds-referee', side: 'REFEREE', level: 1, amount: 5, status: 'APPROVED' }),
        ]),
      );
      const refereeRewards = await app.api.get('/users/ds-referee/rewards');
      expect(refereeRewards.body.rewards).toEqual([expect.objectContaining({ fulfillmentType: 'COUPON_CODE', amount: 5, side: 'REFEREE' })]);
    });

    it('stops rewarding a referrer at maxRewardsPerReferrer, still recording the conversions', async () => {
      const capped = await createCampaign(app, { name: 'Capped', maxRewardsPerReferrer: 2 });
      const { referralCode } = await createReferral(app, capped.id, 'capped-referrer');
      const results = [];
      for (const referee of ['cap-1', 'cap-2', 'cap-3']) results.push(await convert(app, referralCode, referee));
      expect(results.map((r) => [r.rewardCreated, r.rewardAmount])).toEqual([
        [true, 10],
        [true, 10],
        [false, 0],
      ]);
      expect(results[2]).toMatchObject({ conversionStatus: 'CONVERTED', rewards: [] });
      const rewards = await app.api.get('/rewards?userId=capped-referrer');
      expect(rewards.body.pagination.totalItems).toBe(2);
      expect((await app.api.get(`/referrals/${referralCode}`)).body.referral.rewardAmount).toBe(20);
    });

    it('records a conversion outside the attribution window without rewards', async () => {
      const windowed = await createCampaign(app, { name: 'Windowed', attributionWindowDays: 7 });
      const { referralCode } = await createReferral(app, windowed.id, 'window-referrer', { refereeId: 'slow-referee' });
      // Nobody waits eight days in a test: the referee's first touch is moved back instead.
      const db = await serviceDatabase('referral');
      try {
        const moved = await db
          .collection('conversions')
          .updateOne({ appId: app.appId, campaignId: windowed.id, refereeId: 'slow-referee' }, { $set: { touchedAt: new Date(Date.now() - 8 * 86_400_000) } });
        expect(moved.modifiedCount).toBe(1);
      } finally {
        await db.close();
      }
      const late = await convert(app, referralCode, 'slow-referee');
      expect(late).toMatchObject({ conversionStatus: 'CONVERTED', rewardCreated: false, rewardAmount: 0, rewards: [] });
      // A referee who first touches the code now is inside the window.
      expect((await convert(app, referralCode, 'quick-referee')).rewardCreated).toBe(true);
    });
  });

  describe('multi-level attribution', () => {
    it('credits A, B and C when D converts through C (A refers B, B refers C, C refers D)', async () => {
      const chain = await createCampaign(app, {
        name: 'Chain',
        referrerReward: { amount: 10, fulfillmentType: 'DISCOUNT_CODE' },
        levels: [
          { level: 2, amount: 5 },
          { level: 3, amount: 2 },
        ],
      });
      const a = await createReferral(app, chain.id, 'A');
      // B asks for a code before converting: its level follows once it converts.
      const b = await createReferral(app, chain.id, 'B');
      await convert(app, a.referralCode, 'B');
      expect((await app.api.get(`/referrals/${b.referralCode}`)).body.referral.level).toBe(2);
      await convert(app, b.referralCode, 'C');
      const c = await createReferral(app, chain.id, 'C');
      expect((await app.api.get(`/referrals/${c.referralCode}`)).body.referral.level).toBe(3);
      expect((await app.api.get(`/referrals/${a.referralCode}`)).body.referral.level).toBe(1);

      const d = await convert(app, c.referralCode, 'D');
      expect(d).toMatchObject({ referrerId: 'C', rewardAmount: 10, rewardCreated: true });
      expect(d.upline).toEqual([
        { id: expect.stringMatching(/^conv_/), level: 2, referralCode: b.referralCode, referrerId: 'B', rewardAmount: 5 },
        { id: expect.stringMatching(/^conv_/), level: 3, referralCode: a.referralCode, referrerId: 'A', rewardAmount: 2 },
      ]);
      expect(d.rewards.map((r: { userId: string; level: number; amount: number }) => [r.userId, r.level, r.amount])).toEqual([
        ['C', 1, 10],
        ['B', 2, 5],
        ['A', 3, 2],
      ]);

      const records = await app.api.get(`/conversions?referralCode=${c.referralCode}`);
      expect(records.status).toBe(200);
      expect(
        records.body.conversions
          .map((r: any) => [r.level, r.referralCode, r.originalReferralCode, r.referrerId, r.refereeId, r.rewardAmount, r.status, r.conversionId])
          .sort((x: number[], y: number[]) => x[0] - y[0]),
      ).toEqual([
        [1, c.referralCode, c.referralCode, 'C', 'D', 10, 'CONVERTED', d.conversionId],
        [2, b.referralCode, c.referralCode, 'B', 'D', 5, 'CONVERTED', d.conversionId],
        [3, a.referralCode, c.referralCode, 'A', 'D', 2, 'CONVERTED', d.conversionId],
      ]);

      for (const [user, level, amount] of [
        ['C', 1, 10],
        ['B', 2, 5],
        ['A', 3, 2],
      ] as const) {
        const rewards = (await app.api.get(`/rewards?userId=${user}`)).body.rewards;
        expect(rewards).toContainEqual(
          expect.objectContaining({ conversionId: d.conversionId, level, amount, status: 'APPROVED', fulfillmentType: 'DISCOUNT_CODE' }),
        );
      }
      const events = await waitForEvents('conversion.created', (e) => e.data.conversionId === d.conversionId, 3);
      expect(events.map((e) => e.data.level).sort()).toEqual([1, 2, 3]);
    });

    it('stops at the deepest configured level', async () => {
      const shallow = await createCampaign(app, { name: 'Two levels', levels: [{ level: 2, amount: 3 }] });
      const p = await createReferral(app, shallow.id, 'P');
      const q = await createReferral(app, shallow.id, 'Q');
      await convert(app, p.referralCode, 'Q');
      const r = await createReferral(app, shallow.id, 'R');
      await convert(app, q.referralCode, 'R');
      const s = await convert(app, r.referralCode, 'S');
      // R is level 1 and Q level 2; P would be level 3, which this campaign does not pay.
      expect(s.upline).toEqual([expect.objectContaining({ referrerId: 'Q', level: 2, rewardAmount: 3 })]);
      expect(s.rewards.map((x: { userId: string }) => x.userId)).toEqual(['R', 'Q']);
    });

    it('never pays a user for their own conversion when the tree loops', async () => {
      const deep = await createCampaign(app, { name: 'Loop', levels: [{ level: 2, amount: 3 }, { level: 3, amount: 1 }] });
      const x = await createReferral(app, deep.id, 'X');
      const y = await createReferral(app, deep.id, 'Y');
      await convert(app, x.referralCode, 'Y');
      const z = await createReferral(app, deep.id, 'Z');
      await convert(app, y.referralCode, 'Z');
      // X converts through Z's code: Z (level 1), Y (level 2), and X himself would be level 3.
      const loop = await convert(app, z.referralCode, 'X');
      expect(loop.upline.map((u: { referrerId: string }) => u.referrerId)).toEqual(['Y']);
      expect(loop.rewards.map((r: { userId: string }) => r.userId)).toEqual(['Z', 'Y']);
    });
  });

  describe('GET /conversions', () => {
    let listCampaign: { id: string };
    beforeAll(async () => {
      listCampaign = await createCampaign(app, { name: 'List' });
      const { referralCode } = await createReferral(app, listCampaign.id, 'lister', { refereeId: 'l-pending' });
      for (const referee of ['l-1', 'l-2', 'l-3', 'l-4']) await convert(app, referralCode, referee);
    });

    it('pages newest first, filters by campaign and status', async () => {
      const page1 = await app.api.get(`/conversions?campaignId=${listCampaign.id}&limit=2`);
      expect(page1.status).toBe(200);
      expect(page1.body.pagination).toEqual({ page: 1, limit: 2, totalItems: 5, totalPages: 3 });
      expect(page1.body.conversions.map((c: { refereeId: string }) => c.refereeId)).toEqual(['l-4', 'l-3']);
      const page3 = await app.api.get(`/conversions?campaignId=${listCampaign.id}&limit=2&page=3`);
      expect(page3.body.conversions.map((c: { refereeId: string }) => c.refereeId)).toEqual(['l-pending']);

      const pending = await app.api.get(`/conversions?campaignId=${listCampaign.id}&status=PENDING`);
      expect(pending.body.conversions.map((c: { refereeId: string }) => c.refereeId)).toEqual(['l-pending']);
      const converted = await app.api.get(`/conversions?campaignId=${listCampaign.id}&status=CONVERTED`);
      expect(converted.body.pagination).toEqual({ page: 1, limit: 25, totalItems: 4, totalPages: 1 });

      const defaults = await app.api.get('/conversions');
      expect(defaults.body.pagination).toMatchObject({ page: 1, limit: 25 });
      expect(defaults.body.pagination.totalItems).toBeGreaterThanOrEqual(5);
    });

    it('refuses bad query values', async () => {
      for (const query of ['limit=0', 'limit=101', 'page=0', 'status=DONE', 'limit=abc']) {
        const res = await app.api.get(`/conversions?${query}`);
        expect([query, res.status, res.body.error.code]).toEqual([query, 400, 'VALIDATION_ERROR']);
      }
    });

    it("keeps apps apart: another app sees none of these records and cannot convert with this app's code", async () => {
      const { referralCode } = await createReferral(app, listCampaign.id, 'lister');
      const theirs = await other.api.get(`/conversions?referralCode=${referralCode}`);
      expect(theirs.status).toBe(200);
      expect(theirs.body).toEqual({ conversions: [], pagination: { page: 1, limit: 25, totalItems: 0, totalPages: 0 } });
      expect((await other.api.get(`/conversions?campaignId=${listCampaign.id}`)).body.conversions).toEqual([]);
      expect((await other.api.post('/conversions', { referralCode, refereeId: 'intruder' })).status).toBe(404);
    });
  });

  it('documents both operations with their response schemas in the OpenAPI document', async () => {
    const doc = (await new ApiClient(e2eStack().gatewayUrl).get('/api/v1/openapi.json')).body;
    const post = doc.paths['/api/v1/conversions'].post;
    expect(post.responses['201'].content['application/json'].schema).toBeDefined();
    for (const status of ['400', '404', '409', '422']) expect(post.responses[status]).toBeDefined();
    expect(doc.paths['/api/v1/conversions'].get.responses['200'].content['application/json'].schema).toBeDefined();
    const conversion = doc.components.schemas.Conversion;
    expect(Object.keys(conversion.properties)).toEqual(
      expect.arrayContaining(['id', 'referralCode', 'originalReferralCode', 'referrerId', 'refereeId', 'status', 'rewardAmount', 'level', 'convertedAt', 'Campaign']),
    );
  });
});
