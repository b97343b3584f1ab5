import { ApiClient, createTestApp, e2eStack, waitForEvents, type TestApp } from '@ris/testing';
import { convert, createCampaign, createReferral, serviceDatabase } from './support/referral-scenario';

const CODE = /^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{4}-[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{4}-[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{4}$/;
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('rewards', () => {
  let app: TestApp;
  let other: TestApp;
  let discount: { id: string };
  let manual: { id: string };
  let seq = 0;

  beforeAll(async () => {
    [app, other] = await Promise.all([createTestApp('rewards'), createTestApp('rewards other')]);
    discount = await createCampaign(app, { name: 'Discounts', rewardCodeValidityDays: 30 });
    manual = await createCampaign(app, { name: 'Manual', referrerReward: { amount: 25, fulfillmentType: 'MANUAL' } });
  });

  /** A fresh APPROVED reward for `referrerId` in the campaign. */
  async function earn(campaignId: string, referrerId: string): Promise<string> {
    const { referralCode } = await createReferral(app, campaignId, referrerId);
    seq += 1;
    const res = await convert(app, referralCode, `referee-${referrerId}-${seq}`);
    return res.rewards[0].rewardId;
  }

  it('returns one reward with every field of the record', async () => {
    const rewardId = await earn(discount.id, 'getter');
    const res = await app.api.get(`/rewards/${rewardId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      reward: {
        id: rewardId,
        userId: 'getter',
        campaignId: discount.id,
        referralId: expect.stringMatching(/^ref_/),
        conversionId: expect.stringMatching(/^conv_/),
        side: 'REFERRER',
        level: 1,
        amount: 10,
        earnedAmount: 10,
        reversedAmount: 0,
        reversalReason: null,
        purchaseId: null,
        availableAt: null,
        currency: 'USD',
        fulfillmentType: 'DISCOUNT_CODE',
        status: 'APPROVED',
        discountCode: null,
        expiresAt: null,
        claimedAt: null,
        redeemedAt: null,
        createdAt: expect.stringMatching(TIMESTAMP),
        cancellationNote: null,
        payoutId: null,
        paidAt: null,
        clawedBack: 0,
      },
    });
    expect((await app.api.get('/rewards/rwd_nope')).status).toBe(404);
    const theirs = await other.api.get(`/rewards/${rewardId}`);
    expect(theirs.status).toBe(404);
    expect(theirs.body.error.code).toBe('NOT_FOUND');
  });

  describe('claim', () => {
    it('issues a unique code valid for the campaign setting, and the same code again', async () => {
      const rewardId = await earn(discount.id, 'claimer');
      const before = Date.now();
      const res = await app.api.post(`/rewards/${rewardId}/claim`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, discountCode: expect.stringMatching(CODE), expiresAt: expect.stringMatching(TIMESTAMP) });
      const days = (Date.parse(res.body.expiresAt) - before) / 86_400_000;
      expect(days).toBeGreaterThan(29.99);
      expect(days).toBeLessThan(30.01);
      expect(res.body.reward).toMatchObject({ id: rewardId, status: 'APPROVED', discountCode: res.body.discountCode, claimedAt: expect.stringMatching(TIMESTAMP) });

      const again = await app.api.post(`/rewards/${rewardId}/claim`);
      expect(again.status).toBe(200);
      expect(again.body.discountCode).toBe(res.body.discountCode);
      expect(again.body.expiresAt).toBe(res.body.expiresAt);

      const [claimed] = await waitForEvents('reward.claimed', (e) => e.data.rewardId === rewardId, 1);
      expect(claimed).toMatchObject({ appId: app.appId, data: { discountCode: res.body.discountCode, userId: 'claimer', expiresAt: res.body.expiresAt } });
    });

    it('defaults to 90 days when the campaign does not say', async () => {
      const plain = await createCampaign(app, { name: 'Plain' });
      const rewardId = await earn(plain.id, 'ninety');
      const res = await app.api.post(`/rewards/${rewardId}/claim`);
      expect(Math.round((Date.parse(res.body.expiresAt) - Date.now()) / 86_400_000)).toBe(90);
    });

    it('gives 20 concurrent claims of one reward one code', async () => {
      const rewardId = await earn(discount.id, 'stampede');
      const results = await Promise.all(Array.from({ length: 20 }, () => app.api.post(`/rewards/${rewardId}/claim`)));
      expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
      expect(new Set(results.map((r) => r.body.discountCode)).size).toBe(1);
      const events = await waitForEvents('reward.claimed', (e) => e.data.rewardId === rewardId, 2, 1500);
      expect(events).toHaveLength(1);
    });

    it('refuses rewards without a code (422 REWARD_NOT_CLAIMABLE), unknown and foreign ones (404)', async () => {
      const rewardId = await earn(manual.id, 'manual-user');
      const res = await app.api.post(`/rewards/${rewardId}/claim`);
      expect(res.status).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'REWARD_NOT_CLAIMABLE', details: { fulfillmentType: 'MANUAL', status: 'APPROVED' } });
      expect((await app.api.post('/rewards/rwd_nope/claim')).status).toBe(404);
      const mine = await earn(discount.id, 'not-yours');
      expect((await other.api.post(`/rewards/${mine}/claim`)).status).toBe(404);
    });
  });

  describe('validate', () => {
    let code: string;
    let rewardId: string;
    beforeAll(async () => {
      rewardId = await earn(discount.id, 'validator');
      code = (await app.api.post(`/rewards/${rewardId}/claim`)).body.discountCode;
    });

    it('reports a live code with its type, discount and expiry, in any spelling', async () => {
      const res = await app.api.get(`/rewards/validate?code=${encodeURIComponent(code.toLowerCase().replace(/-/g, ' '))}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        valid: true,
        code,
        type: 'DISCOUNT_CODE',
        discount: 10,
        expiresAt: expect.stringMatching(TIMESTAMP),
        reason: null,
      });
    });

    it("answers valid: false for unknown codes and for another app's code, showing nothing of it", async () => {
      const unknown = await app.api.get('/rewards/validate?code=AAAA-BBBB-CCCC');
      expect(unknown.body).toEqual({ valid: false, code: 'AAAA-BBBB-CCCC', type: null, discount: null, expiresAt: null, reason: 'NOT_FOUND' });
      const foreign = await other.api.get(`/rewards/validate?code=${code}`);
      expect(foreign.status).toBe(200);
      expect(foreign.body).toEqual({ valid: false, code, type: null, discount: null, expiresAt: null, reason: 'NOT_FOUND' });
      expect((await app.api.get('/rewards/validate')).status).toBe(400);
    });

    it('answers valid: false once the code expired', async () => {
      const expiring = await earn(discount.id, 'expiring');
      const expiringCode = (await app.api.post(`/rewards/${expiring}/claim`)).body.discountCode;
      const db = await serviceDatabase('reward');
      try {
        // Thirty days are not waited for: the expiry is moved to yesterday.
        const yesterday = new Date(Date.now() - 86_400_000);
        await db.collection('reward_codes').updateOne({ _id: expiring as never, appId: app.appId }, { $set: { expiresAt: yesterday } });
        await db.collection('rewards').updateOne({ _id: expiring as never, appId: app.appId }, { $set: { expiresAt: yesterday } });
      } finally {
        await db.close();
      }
      const res = await app.api.get(`/rewards/validate?code=${expiringCode}`);
      expect(res.body).toMatchObject({ valid: false, reason: 'EXPIRED', type: 'DISCOUNT_CODE', discount: 10 });
    });

    it('answers valid: false once the reward is PAID', async () => {
      await app.api.post('/rewards/redeem', { rewardId, userId: 'validator' });
      const res = await app.api.get(`/rewards/validate?code=${code}`);
      expect(res.body).toMatchObject({ valid: false, code, reason: 'REDEEMED' });
    });
  });

  describe('redeem', () => {
    it('moves an APPROVED reward to PAID for its own user, once', async () => {
      const rewardId = await earn(manual.id, 'redeemer');
      const res = await app.api.post('/rewards/redeem', { rewardId, userId: 'redeemer' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        reward: expect.objectContaining({ id: rewardId, status: 'PAID', redeemedAt: expect.stringMatching(TIMESTAMP), fulfillmentType: 'MANUAL', amount: 25 }),
      });
      const again = await app.api.post('/rewards/redeem', { rewardId, userId: 'redeemer' });
      expect(again.status).toBe(409);
      expect(again.body.error).toMatchObject({ code: 'INVALID_TRANSITION', details: { status: 'PAID' } });
      const [redeemed] = await waitForEvents('reward.redeemed', (e) => e.data.rewardId === rewardId, 1);
      expect(redeemed.data).toMatchObject({ userId: 'redeemer', amount: 25, redeemedAt: res.body.reward.redeemedAt });
    });

    it("answers 404 for someone else's reward, an unknown one and another app's, 400 for a bad body", async () => {
      const rewardId = await earn(manual.id, 'owner');
      expect((await app.api.post('/rewards/redeem', { rewardId, userId: 'thief' })).status).toBe(404);
      expect((await app.api.post('/rewards/redeem', { rewardId: 'rwd_nope', userId: 'owner' })).status).toBe(404);
      expect((await other.api.post('/rewards/redeem', { rewardId, userId: 'owner' })).status).toBe(404);
      expect((await app.api.post('/rewards/redeem', { rewardId })).status).toBe(400);
      expect((await app.api.post('/rewards/redeem', { rewardId: '', userId: 'owner' })).status).toBe(400);
      expect((await app.api.get(`/rewards/${rewardId}`)).body.reward.status).toBe('APPROVED');
    });

    it('lets exactly one of 20 concurrent redeems through', async () => {
      const rewardId = await earn(manual.id, 'racer');
      const results = await Promise.all(Array.from({ length: 20 }, () => app.api.post('/rewards/redeem', { rewardId, userId: 'racer' })));
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      const refused = results.filter((r) => r.status === 409);
      expect(refused).toHaveLength(19);
      expect(refused.every((r) => r.body.error.code === 'INVALID_TRANSITION')).toBe(true);
      expect((await app.api.get(`/rewards/${rewardId}`)).body.reward.status).toBe('PAID');
    });
  });

  describe('lists', () => {
    let listCampaign: { id: string };
    beforeAll(async () => {
      listCampaign = await createCampaign(app, { name: 'Lists', refereeReward: { amount: 3, fulfillmentType: 'GIFT_CARD' } });
      const { referralCode } = await createReferral(app, listCampaign.id, 'lister');
      for (const referee of ['lr-1', 'lr-2', 'lr-3']) await convert(app, referralCode, referee);
    });

    it('filters GET /rewards by user, status and fulfillment type, newest first, paged', async () => {
      const mine = await app.api.get('/rewards?userId=lister&limit=2');
      expect(mine.status).toBe(200);
      expect(mine.body.pagination).toEqual({ page: 1, limit: 2, totalItems: 3, totalPages: 2 });
      expect(mine.body.rewards.every((r: { userId: string }) => r.userId === 'lister')).toBe(true);
      const page2 = await app.api.get('/rewards?userId=lister&limit=2&page=2');
      const all = [...mine.body.rewards, ...page2.body.rewards];
      expect(new Set(all.map((r: { id: string }) => r.id)).size).toBe(3);
      const times = all.map((r: { createdAt: string }) => r.createdAt);
      expect([...times].sort().reverse()).toEqual(times);

      const giftCards = await app.api.get('/rewards?fulfillmentType=GIFT_CARD');
      expect(giftCards.body.rewards.map((r: { userId: string }) => r.userId).sort()).toEqual(['lr-1', 'lr-2', 'lr-3']);
      const paid = await app.api.get('/rewards?status=PAID');
      expect(paid.body.rewards.every((r: { status: string }) => r.status === 'PAID')).toBe(true);
      expect(paid.body.rewards.length).toBeGreaterThan(0);

      for (const query of ['status=GONE', 'fulfillmentType=CHEQUE', 'limit=101', 'page=0']) {
        expect([query, (await app.api.get(`/rewards?${query}`)).status]).toEqual([query, 400]);
      }
      expect((await other.api.get('/rewards?userId=lister')).body.rewards).toEqual([]);
    });

    it("lists a user's rewards at GET /users/{userId}/rewards with limit", async () => {
      const res = await app.api.get('/users/lister/rewards?limit=1');
      expect(res.status).toBe(200);
      expect(res.body.rewards).toHaveLength(1);
      expect(res.body.pagination).toEqual({ page: 1, limit: 1, totalItems: 3, totalPages: 3 });
      const nobody = await app.api.get('/users/nobody/rewards');
      expect(nobody.body).toEqual({ rewards: [], pagination: { page: 1, limit: 25, totalItems: 0, totalPages: 0 } });
    });
  });

  it('documents every reward operation with its response schema', async () => {
    const doc = (await new ApiClient(e2eStack().gatewayUrl).get('/api/v1/openapi.json')).body;
    const ops: Array<[string, string, string]> = [
      ['/api/v1/rewards', 'get', '200'],
      ['/api/v1/rewards/{rewardId}', 'get', '200'],
      ['/api/v1/rewards/{rewardId}/claim', 'post', '200'],
      ['/api/v1/rewards/validate', 'get', '200'],
      ['/api/v1/rewards/redeem', 'post', '200'],
      ['/api/v1/users/{userId}/rewards', 'get', '200'],
    ];
    for (const [path, method, status] of ops) {
      expect([path, doc.paths[path]?.[method]?.responses[status]?.content['application/json'].schema]).toEqual([path, expect.anything()]);
    }
    expect(doc.paths['/api/v1/rewards/{rewardId}/claim'].post.responses['422']).toBeDefined();
    expect(doc.paths['/api/v1/rewards/redeem'].post.responses['409']).toBeDefined();
  });
});

// An operator's reward actions (the dashboard's reward drawer and its bulk actions): approve a held reward, cancel one with a note.
describe('reward decisions', () => {
  let app: TestApp;
  let campaignId: string;

  beforeAll(async () => {
    app = await createTestApp('reward decisions');
    campaignId = (await createCampaign(app, { name: 'Decided', refereeReward: { amount: 4, fulfillmentType: 'COUPON_CODE' } })).id;
  });

  const stats = async () => (await app.api.get(`/stats?campaignId=${campaignId}`)).body;

  it("approves a reward held by its conversion's open flag: the flag, the conversion and every held reward with it", async () => {
    const { referralCode } = await createReferral(app, campaignId, 'held-sam');
    const held = await convert(app, referralCode, 'held-sam');
    expect(held.conversionStatus).toBe('FLAGGED');
    const [referrerReward, refereeReward] = held.rewards as Array<{ rewardId: string }>;
    const approved = await app.api.post(`/rewards/${referrerReward.rewardId}/approve`, { note: 'Checked with support' });
    expect([approved.status, approved.body.reward.status]).toEqual([200, 'APPROVED']);
    expect((await app.api.get(`/rewards/${refereeReward.rewardId}`)).body.reward.status).toBe('APPROVED');
    const flag = (await app.api.get('/fraud/flags?status=APPROVED&limit=100')).body.flags.find((f: { conversionId: string }) => f.conversionId === held.conversionId);
    expect(flag).toMatchObject({ status: 'APPROVED', note: 'Checked with support' });
    expect((await app.api.get(`/conversions?referralCode=${referralCode}`)).body.conversions[0].status).toBe('CONVERTED');
    // Not PENDING any more: approving again is a conflict.
    const again = await app.api.post(`/rewards/${referrerReward.rewardId}/approve`, {});
    expect([again.status, again.body.error.code]).toEqual([409, 'INVALID_TRANSITION']);
  });

  it('cancels a reward with a note: its code stops validating, and it leaves the figures once', async () => {
    const { referralCode } = await createReferral(app, campaignId, 'cancel-cy');
    const converted = await convert(app, referralCode, 'cancel-cy-friend');
    const rewardId = converted.rewards.find((r: { side: string }) => r.side === 'REFERRER').rewardId as string;
    const { discountCode } = (await app.api.post(`/rewards/${rewardId}/claim`)).body;
    const before = await stats();
    const key = { 'idempotency-key': `cancel-${rewardId}` };
    const cancelled = await app.api.post(`/rewards/${rewardId}/cancel`, { note: 'Order returned' }, key);
    expect([cancelled.status, cancelled.body.reward.status, cancelled.body.reward.cancellationNote]).toEqual([200, 'CANCELLED', 'Order returned']);
    // A retry of that request answers it again; another request is a conflict.
    expect((await app.api.post(`/rewards/${rewardId}/cancel`, { note: 'Order returned' }, key)).status).toBe(200);
    expect((await app.api.post(`/rewards/${rewardId}/cancel`, { note: 'again' })).body.error.code).toBe('INVALID_TRANSITION');
    expect((await app.api.get(`/rewards/validate?code=${discountCode}`)).body.valid).toBe(false);
    const history = (await app.api.get(`/rewards/${rewardId}/history`)).body.history;
    expect(history.at(-1)).toMatchObject({ from: 'APPROVED', to: 'CANCELLED', note: 'Order returned' });
    // Taken out once: the campaign's reward value, the referrer's earnings, the participant's reward value.
    expect((await stats()).totalRewardValue).toBe(before.totalRewardValue - 10);
    expect((await app.api.get(`/users/cancel-cy/stats?campaignId=${campaignId}`)).body).toMatchObject({ conversions: 1, rewardsEarned: 0 });
    expect((await app.api.get('/participants?q=cancel-cy')).body.participants.map((p: { userId: string; rewardValue: number }) => [p.userId, p.rewardValue])).toEqual([
      ['cancel-cy', 0],
      ['cancel-cy-friend', 4],
    ]);
    const { conversions } = (await app.api.get(`/conversions?referralCode=${referralCode}`)).body;
    expect(conversions[0].rewardAmount).toBe(0);
  });

  it('takes nothing out twice when a conversion with a cancelled reward is then rejected', async () => {
    const { referralCode } = await createReferral(app, campaignId, 'twice-tom');
    const flagged = await convert(app, referralCode, 'twice-tom');
    const referrerReward = flagged.rewards.find((r: { side: string }) => r.side === 'REFERRER').rewardId as string;
    const before = await stats();
    expect((await app.api.post(`/rewards/${referrerReward}/cancel`, { note: 'Duplicate order' })).status).toBe(200);
    const flag = (await app.api.get('/fraud/flags?status=OPEN&limit=100')).body.flags.find((f: { conversionId: string }) => f.conversionId === flagged.conversionId);
    expect((await app.api.post(`/fraud/flags/${flag.id}/resolve`, { decision: 'REJECT' })).status).toBe(200);
    // 10 (the cancelled referrer's) + 4 (the referee's, cancelled by the rejection), once each; one conversion less.
    expect(await stats()).toMatchObject({ totalRewardValue: before.totalRewardValue - 14, totalConversions: before.totalConversions - 1 });
    expect((await app.api.get('/participants?q=twice-tom')).body.participants[0]).toMatchObject({ conversions: 0, rewardValue: 0 });
  });

  it('refuses a reward of another app (404), changing nothing', async () => {
    const other = await createTestApp('reward decisions other');
    const { referralCode } = await createReferral(app, campaignId, 'mine-mo');
    const converted = await convert(app, referralCode, 'mine-mo-friend');
    expect((await other.api.post(`/rewards/${converted.rewards[0].rewardId}/cancel`, { note: 'not yours' })).status).toBe(404);
    expect((await app.api.get(`/rewards/${converted.rewards[0].rewardId}`)).body.reward.status).toBe('APPROVED');
  });
});
