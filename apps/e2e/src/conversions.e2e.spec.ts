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
        currency: 'USD',
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
          reversedAmount: 0,
          currency: 'USD',
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

  describe('commissions: a percent of the sale, in the campaign currency', () => {
    const share = (percent: number, maxAmount?: number) => ({ percent, ...(maxAmount ? { maxAmount } : {}), fulfillmentType: 'DISCOUNT_CODE' });
    const rewardsOf = async (userId: string) => (await app.api.get(`/rewards?userId=${encodeURIComponent(userId)}`)).body.rewards;
    const recordsOf = async (refereeId: string) => (await app.api.get(`/conversions?userId=${encodeURIComponent(refereeId)}`)).body.conversions;

    it('pays the referrer its percent of the amount up to its cap, the referee its percent, rounded to the cent, in EUR', async () => {
      const euros = await createCampaign(app, { name: 'Share', currency: 'EUR', referrerReward: share(10, 50), refereeReward: share(7.5) });
      const { referralCode } = await createReferral(app, euros.id, 'pct-ann');
      // 10 % of 123.45 is 12.345 → 12.35 (half away from zero); 7.5 % is 9.25875 → 9.26.
      const small = await convert(app, referralCode, 'pct-bob', { amount: 123.45, currency: 'EUR' });
      expect(small).toMatchObject({ rewardAmount: 12.35, currency: 'EUR', rewardCreated: true });
      expect(small.rewards.map((r: { side: string; amount: number }) => [r.side, r.amount]).sort()).toEqual([
        ['REFEREE', 9.26],
        ['REFERRER', 12.35],
      ]);
      // 10 % of 2,000 is 200, capped at 50; the referee's rule has no cap.
      const big = await convert(app, referralCode, 'pct-cat', { amount: 2000 });
      expect(big.rewards.map((r: { side: string; amount: number }) => [r.side, r.amount]).sort()).toEqual([
        ['REFEREE', 150],
        ['REFERRER', 50],
      ]);
      const reward = (await app.api.get(`/rewards/${big.rewards.find((r: { side: string }) => r.side === 'REFERRER').rewardId}`)).body.reward;
      expect(reward).toMatchObject({ amount: 50, currency: 'EUR', userId: 'pct-ann' });
      expect((await recordsOf('pct-cat'))[0]).toMatchObject({ amount: 2000, currency: 'EUR', rewardAmount: 50 });
      expect((await app.api.get(`/stats?campaignId=${euros.id}`)).body.totalRewardValue).toBeCloseTo(12.35 + 9.26 + 50 + 150, 6);
      const [created] = await waitForEvents('reward.created', (e) => e.data.rewardId === reward.id, 1);
      expect(created.data).toMatchObject({ amount: 50, currency: 'EUR' });
    });

    it("refuses an amount in another currency than the campaign's (422 CURRENCY_MISMATCH naming both) and stores nothing", async () => {
      const euros = await createCampaign(app, { name: 'Euro only', currency: 'EUR', referrerReward: share(10) });
      const { referralCode } = await createReferral(app, euros.id, 'cur-ann');
      const res = await app.api.post('/conversions', { referralCode, refereeId: 'cur-bob', amount: 80, currency: 'USD' });
      expect(res.status).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'CURRENCY_MISMATCH', details: { campaignId: euros.id, currency: 'USD', campaignCurrency: 'EUR' } });
      expect(await recordsOf('cur-bob')).toEqual([]);
      expect(await rewardsOf('cur-ann')).toEqual([]);
      expect((await app.api.get(`/stats?campaignId=${euros.id}`)).body.totalConversions).toBe(0);
      // A currency the document does not list is a 400; the campaign's own converts.
      expect((await app.api.post('/conversions', { referralCode, refereeId: 'cur-bob', amount: 80, currency: 'EURO' })).status).toBe(400);
      expect(await convert(app, referralCode, 'cur-bob', { amount: 80, currency: 'EUR' })).toMatchObject({ rewardAmount: 8, currency: 'EUR' });
    });

    it('refuses a conversion without amount when any rule pays a percent, a level alone too (422 AMOUNT_REQUIRED), and stores nothing', async () => {
      const levelShare = await createCampaign(app, { name: 'Level share', levels: [{ level: 2, percent: 1 }] });
      const top = await createReferral(app, levelShare.id, 'amt-top');
      const mid = await createReferral(app, levelShare.id, 'amt-mid');
      await convert(app, top.referralCode, 'amt-mid', { amount: 10 });
      const res = await app.api.post('/conversions', { referralCode: mid.referralCode, refereeId: 'amt-buyer' });
      expect(res.status).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'AMOUNT_REQUIRED', details: { campaignId: levelShare.id } });
      expect(await recordsOf('amt-buyer')).toEqual([]);
      expect(await rewardsOf('amt-mid')).toEqual([]);
      // With its amount the same referee converts: the refusal left nothing behind.
      const done = await convert(app, mid.referralCode, 'amt-buyer', { amount: 250 });
      expect(done.rewards.map((r: { userId: string; level: number; amount: number }) => [r.userId, r.level, r.amount])).toEqual([
        ['amt-mid', 1, 10],
        ['amt-top', 2, 2.5],
      ]);
    });

    it('pays a level its percent of the amount, next to fixed levels, the upline records in the campaign currency', async () => {
      const chain = await createCampaign(app, {
        name: 'Percent levels',
        currency: 'GBP',
        referrerReward: share(20, 30),
        levels: [
          { level: 2, percent: 5, maxAmount: 4 },
          { level: 3, amount: 1 },
        ],
      });
      const a = await createReferral(app, chain.id, 'lv-A');
      const b = await createReferral(app, chain.id, 'lv-B');
      await convert(app, a.referralCode, 'lv-B', { amount: 10 });
      const c = await createReferral(app, chain.id, 'lv-C');
      await convert(app, b.referralCode, 'lv-C', { amount: 10 });
      const d = await convert(app, c.referralCode, 'lv-D', { amount: 99.99, currency: 'GBP' });
      // 20 % of 99.99 = 19.998 → 20.00; 5 % = 4.9995 → 5.00, capped at 4; level 3 a fixed 1.
      expect(d.rewards.map((r: { userId: string; level: number; amount: number }) => [r.userId, r.level, r.amount])).toEqual([
        ['lv-C', 1, 20],
        ['lv-B', 2, 4],
        ['lv-A', 3, 1],
      ]);
      expect(d.upline.map((u: { level: number; rewardAmount: number }) => [u.level, u.rewardAmount])).toEqual([
        [2, 4],
        [3, 1],
      ]);
      const records = (await app.api.get(`/conversions?referralCode=${c.referralCode}`)).body.conversions;
      expect(records.map((r: { level: number; currency: string; amount: number }) => [r.level, r.currency, r.amount]).sort()).toEqual([
        [1, 'GBP', 99.99],
        [2, 'GBP', 99.99],
        [3, 'GBP', 99.99],
      ]);
    });

    it('leaves fixed campaigns as they were: the fixed amount whatever the sale, in USD, also one stored before commissions', async () => {
      const plain = await createCampaign(app, { name: 'Fixed', levels: [{ level: 2, amount: 3 }] });
      expect(plain).toMatchObject({ currency: 'USD', holdDays: 0, recurringMonths: null, referrerReward: { amount: 10, percent: null, maxAmount: null } });
      const p = await createReferral(app, plain.id, 'fx-P');
      const q = await createReferral(app, plain.id, 'fx-Q');
      await convert(app, p.referralCode, 'fx-Q');
      const big = await convert(app, q.referralCode, 'fx-R', { amount: 5000, currency: 'USD' });
      expect(big.rewards.map((r: { level: number; amount: number }) => [r.level, r.amount])).toEqual([
        [1, 10],
        [2, 3],
      ]);
      expect(big.currency).toBe('USD');

      // A campaign stored before commissions existed (no currency, holding period, recurrence, percent or cap).
      const db = await serviceDatabase('referral');
      try {
        const now = new Date();
        await db.collection('campaigns').insertOne({
          _id: `cmp_old_${Date.now()}` as never,
          appId: app.appId,
          name: 'Stored before',
          status: 'ACTIVE',
          referrerReward: { amount: 7, fulfillmentType: 'MANUAL' },
          refereeReward: { amount: 2, fulfillmentType: 'MANUAL' },
          levels: [],
          attributionWindowDays: 30,
          maxRewardsPerReferrer: null,
          fraud: { flagThreshold: 50 },
          rewardCodeValidityDays: 90,
          createdAt: now,
          updatedAt: now,
        });
      } finally {
        await db.close();
      }
      const old = (await app.api.get('/campaigns?limit=100')).body.campaigns.find((x: { name: string }) => x.name === 'Stored before');
      expect(old).toMatchObject({
        currency: 'USD',
        holdDays: 0,
        recurringMonths: null,
        referrerReward: { amount: 7, percent: null, maxAmount: null, fulfillmentType: 'MANUAL' },
        refereeReward: { amount: 2, percent: null, maxAmount: null },
      });
      expect((await app.api.get(`/campaigns/${old.id}`)).body.campaign).toEqual(old);
      const { referralCode } = await createReferral(app, old.id, 'old-ann');
      const converted = await convert(app, referralCode, 'old-bob', { amount: 1000 });
      expect(converted).toMatchObject({ rewardAmount: 7, currency: 'USD' });
      expect((await app.api.get(`/rewards/${converted.rewards[0].rewardId}`)).body.reward).toMatchObject({ currency: 'USD' });
      expect((await app.api.post('/conversions', { referralCode, refereeId: 'old-cat', currency: 'EUR' })).body.error.code).toBe('CURRENCY_MISMATCH');
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
