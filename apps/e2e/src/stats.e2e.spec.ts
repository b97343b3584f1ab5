import { ApiClient, createTestApp, e2eStack, type TestApp } from '@ris/testing';
import { convert, createCampaign, createReferral } from './support/referral-scenario';

describe('stats', () => {
  let app: TestApp;
  let other: TestApp;

  beforeAll(async () => {
    [app, other] = await Promise.all([createTestApp('stats'), createTestApp('stats other')]);
  });

  describe('GET /stats', () => {
    it('counts referrals, clicks, conversions, the conversion rate and the reward value', async () => {
      const campaign = await createCampaign(app, {
        name: 'Counted',
        refereeReward: { amount: 2.5, fulfillmentType: 'COUPON_CODE' },
        levels: [{ level: 2, amount: 4 }],
      });
      const empty = await app.api.get(`/stats?campaignId=${campaign.id}`);
      expect(empty.status).toBe(200);
      expect(empty.body).toEqual({
        campaignId: campaign.id,
        totalReferrals: 0,
        totalClicks: 0,
        totalConversions: 0,
        completedReferrals: 0,
        conversionRate: 0,
        totalRewardValue: 0,
        totalReversals: 0,
      });

      const ann = await createReferral(app, campaign.id, 'ann');
      const ben = await createReferral(app, campaign.id, 'ben');
      await createReferral(app, campaign.id, 'cid');
      // Asking again is the same referral: not counted twice.
      await createReferral(app, campaign.id, 'ann');
      for (let i = 0; i < 3; i += 1) await app.api.post('/clicks', { referralCode: ann.referralCode });
      await app.api.post('/clicks', { referralCode: ben.referralCode, refereeId: 'ben-friend' });
      await convert(app, ann.referralCode, 'ben'); // ben now sits under ann: level 2 pays ann 4
      await convert(app, ann.referralCode, 'dee');
      await convert(app, ben.referralCode, 'eve');

      const res = await app.api.get(`/stats?campaignId=${campaign.id}`);
      expect(res.body).toEqual({
        campaignId: campaign.id,
        totalReferrals: 3,
        totalClicks: 4,
        totalConversions: 3,
        completedReferrals: 2,
        // 2 of 3 referrals converted.
        conversionRate: 66.67,
        // 3 × 10 (level 1) + 4 (ann at level 2 for eve) + 3 × 2.5 (referees).
        totalRewardValue: 41.5,
        totalReversals: 0,
      });
    });

    const rejectFlagOf = async (conversionId: string) => {
      const flag = (await app.api.get('/fraud/flags?status=OPEN&limit=100')).body.flags.find((f: { conversionId: string }) => f.conversionId === conversionId);
      expect((await app.api.post(`/fraud/flags/${flag.id}/resolve`, { decision: 'REJECT' })).status).toBe(200);
    };

    it('leaves a rejected conversion out of every conversion figure, and its cancelled rewards out of the reward value', async () => {
      // Four referrals, one clean conversion, one rejected self-referral.
      const campaign = await createCampaign(app, { name: 'Rejected' });
      const { referralCode } = await createReferral(app, campaign.id, 'self-dealer');
      const sly = await createReferral(app, campaign.id, 'sly');
      await createReferral(app, campaign.id, 'quiet-1');
      await createReferral(app, campaign.id, 'quiet-2');
      await convert(app, referralCode, 'honest-buyer');
      const cheat = await convert(app, sly.referralCode, 'sly');
      expect(cheat.conversionStatus).toBe('FLAGGED');
      // An open flag counts until it is decided.
      expect((await app.api.get(`/stats?campaignId=${campaign.id}`)).body).toMatchObject({ totalConversions: 2, completedReferrals: 2, conversionRate: 50, totalRewardValue: 20 });
      await rejectFlagOf(cheat.conversionId);
      expect((await app.api.get(`/stats?campaignId=${campaign.id}`)).body).toMatchObject({
        totalReferrals: 4,
        totalConversions: 1,
        completedReferrals: 1,
        conversionRate: 25,
        totalRewardValue: 10,
      });
      const { buckets } = (await app.api.get(`/stats/timeseries?campaignId=${campaign.id}&interval=day`)).body;
      const sum = (field: 'conversions' | 'rewardValue') => buckets.reduce((total: number, b: Record<string, number>) => total + b[field], 0);
      expect([sum('conversions'), sum('rewardValue')]).toEqual([1, 10]);
      // The referrer's totals and the list agree.
      expect((await app.api.get(`/users/sly/stats?campaignId=${campaign.id}`)).body).toMatchObject({ conversions: 0, rewardsEarned: 0, rewardsPending: 0 });
      const records = (await app.api.get(`/conversions?referralCode=${sly.referralCode}`)).body.conversions;
      expect(records.map((r: { status: string }) => r.status)).toEqual(['REJECTED']);
      // The referral whose only conversion was rejected completes again with its next one.
      await convert(app, sly.referralCode, 'sly-friend');
      expect((await app.api.get(`/stats?campaignId=${campaign.id}`)).body).toMatchObject({ totalConversions: 2, completedReferrals: 2, conversionRate: 50, totalRewardValue: 20 });
    });

    it('keeps a referral completed when one of its conversions is rejected and another stands', async () => {
      const campaign = await createCampaign(app, { name: 'Half rejected' });
      const { referralCode } = await createReferral(app, campaign.id, 'mixed');
      await convert(app, referralCode, 'real-friend');
      const cheat = await convert(app, referralCode, 'mixed');
      await rejectFlagOf(cheat.conversionId);
      expect((await app.api.get(`/stats?campaignId=${campaign.id}`)).body).toMatchObject({ totalConversions: 1, completedReferrals: 1, conversionRate: 100 });
      expect((await app.api.get(`/users/mixed/stats?campaignId=${campaign.id}`)).body).toMatchObject({ conversions: 1, rewardsEarned: 10 });
    });

    it('needs a campaignId (400) of this app (404)', async () => {
      const missing = await app.api.get('/stats');
      expect(missing.status).toBe(400);
      expect(missing.body.error.details.issues[0].field).toBe('query.campaignId');
      expect((await app.api.get('/stats?campaignId=cmp_nope')).status).toBe(404);
      const mine = await createCampaign(app, { name: 'Private' });
      const theirs = await other.api.get(`/stats?campaignId=${mine.id}`);
      expect(theirs.status).toBe(404);
      expect(theirs.body.error.code).toBe('NOT_FOUND');
    });
  });

  describe('reports across campaigns', () => {
    // An app of its own: its totals are exactly what this block makes.
    let shop: TestApp;
    let spring: { id: string };
    let summer: { id: string };

    beforeAll(async () => {
      shop = await createTestApp('stats reports');
      spring = await createCampaign(shop, { name: 'Spring', refereeReward: { amount: 5, fulfillmentType: 'COUPON_CODE' } });
      summer = await createCampaign(shop, { name: 'Summer', referrerReward: { amount: 20, fulfillmentType: 'DISCOUNT_CODE' } });
      const ann = await createReferral(shop, spring.id, 'ann');
      const bob = await createReferral(shop, spring.id, 'bob');
      const cat = await createReferral(shop, summer.id, 'cat');
      await createReferral(shop, summer.id, 'dan');
      await shop.api.post('/clicks', { referralCode: ann.referralCode });
      await convert(shop, ann.referralCode, 'ann-1');
      await convert(shop, ann.referralCode, 'ann-2');
      await convert(shop, bob.referralCode, 'bob-1');
      await convert(shop, cat.referralCode, 'cat-1');
      // A rejected self-referral: it earns cat nothing and counts nowhere.
      const cheat = await convert(shop, cat.referralCode, 'cat');
      const flag = (await shop.api.get('/fraud/flags?status=OPEN&limit=100')).body.flags.find((f: { conversionId: string }) => f.conversionId === cheat.conversionId);
      expect((await shop.api.post(`/fraud/flags/${flag.id}/resolve`, { decision: 'REJECT' })).status).toBe(200);
    });

    it("GET /stats/campaigns: each campaign's figures, as GET /stats says them, and the app's totals", async () => {
      const res = await shop.api.get('/stats/campaigns');
      expect(res.status).toBe(200);
      const rows = res.body.campaigns as Array<{ campaign: { id: string; name: string }; stats: Record<string, number> }>;
      expect(rows.map((r) => r.campaign.name)).toEqual(['Summer', 'Spring']);
      for (const row of rows) {
        const { campaignId, ...figures } = (await shop.api.get(`/stats?campaignId=${row.campaign.id}`)).body;
        expect([campaignId, row.stats]).toEqual([row.campaign.id, figures]);
      }
      expect(res.body.totals).toEqual({
        totalReferrals: 4,
        totalClicks: 1,
        totalConversions: 4,
        completedReferrals: 3,
        conversionRate: 75,
        // Spring: 3 × (10 + 5); Summer: 20.
        totalRewardValue: 65,
        totalReversals: 0,
      });
      expect(res.body.pagination).toEqual({ page: 1, limit: 25, totalItems: 2, totalPages: 1 });
      expect((await shop.api.patch(`/campaigns/${summer.id}`, { status: 'PAUSED' })).status).toBe(200);
      const paused = (await shop.api.get('/stats/campaigns?status=PAUSED')).body;
      expect(paused.campaigns.map((r: { campaign: { id: string } }) => r.campaign.id)).toEqual([summer.id]);
      // The totals stay the app's, whatever the filter.
      expect(paused.totals.totalConversions).toBe(4);
      expect((await shop.api.patch(`/campaigns/${summer.id}`, { status: 'ACTIVE' })).status).toBe(200);
    });

    it('GET /stats/timeseries without a campaign: every campaign summed per bucket', async () => {
      const all = (await shop.api.get('/stats/timeseries?interval=day')).body;
      expect(all.campaignId).toBeNull();
      const one = async (campaignId: string) => (await shop.api.get(`/stats/timeseries?interval=day&campaignId=${campaignId}`)).body.buckets;
      const [a, b] = [await one(spring.id), await one(summer.id)];
      expect(all.buckets).toEqual(
        a.map((bucket: Record<string, number>, i: number) => ({
          start: bucket.start,
          referrals: bucket.referrals + b[i].referrals,
          clicks: bucket.clicks + b[i].clicks,
          conversions: bucket.conversions + b[i].conversions,
          rewardValue: bucket.rewardValue + b[i].rewardValue,
          reversals: bucket.reversals + b[i].reversals,
          conversionRate: all.buckets[i].conversionRate,
        })),
      );
      const sum = (field: string) => all.buckets.reduce((total: number, bucket: Record<string, number>) => total + bucket[field], 0);
      expect([sum('referrals'), sum('conversions'), sum('rewardValue')]).toEqual([4, 4, 65]);
    });

    it('GET /stats/top-referrers: by conversions or reward value, in a period, of a campaign or all; rejected conversions count for nobody', async () => {
      const byConversions = (await shop.api.get('/stats/top-referrers')).body;
      expect(byConversions.referrers).toEqual([
        { userId: 'ann', conversions: 2, rewardValue: 20 },
        // A tie on conversions goes to the reward value.
        { userId: 'cat', conversions: 1, rewardValue: 20 },
        { userId: 'bob', conversions: 1, rewardValue: 10 },
      ]);
      const byValue = (await shop.api.get('/stats/top-referrers?by=REWARD_VALUE&limit=2')).body.referrers;
      expect(byValue.map((r: { userId: string }) => r.userId)).toEqual(['ann', 'cat']);
      const summerOnly = (await shop.api.get(`/stats/top-referrers?campaignId=${summer.id}`)).body.referrers;
      expect(summerOnly).toEqual([{ userId: 'cat', conversions: 1, rewardValue: 20 }]);
      // A period before anything happened is empty; a period must run forwards and stay within a year.
      const past = (await shop.api.get('/stats/top-referrers?from=2020-01-01T00:00:00Z&to=2020-02-01T00:00:00Z')).body;
      expect(past).toEqual({ from: '2020-01-01T00:00:00.000Z', to: '2020-02-01T00:00:00.000Z', referrers: [] });
      const backwards = await shop.api.get('/stats/top-referrers?from=2020-02-01T00:00:00Z&to=2020-01-01T00:00:00Z');
      expect([backwards.status, backwards.body.error.code, backwards.body.error.details.field]).toEqual([422, 'INVALID_RANGE', 'to']);
      expect((await shop.api.get('/stats/top-referrers?from=2020-01-01T00:00:00Z&to=2022-01-01T00:00:00Z')).body.error.code).toBe('INVALID_RANGE');
      expect((await shop.api.get('/stats/top-referrers?limit=101')).status).toBe(400);
    });
  });

  describe('GET /users/{userId}/stats', () => {
    let chain: { id: string };
    beforeAll(async () => {
      chain = await createCampaign(app, {
        name: 'User stats',
        levels: [
          { level: 2, amount: 5 },
          { level: 3, amount: 1 },
        ],
      });
      const root = await createReferral(app, chain.id, 'root');
      await app.api.post('/clicks', { referralCode: root.referralCode });
      await app.api.post('/clicks', { referralCode: root.referralCode });
      await convert(app, root.referralCode, 'mid');
      const mid = await createReferral(app, chain.id, 'mid');
      await convert(app, mid.referralCode, 'leaf');
      const leaf = await createReferral(app, chain.id, 'leaf');
      await convert(app, leaf.referralCode, 'end-customer');
      // A flagged (held) conversion through root: pending, not earned.
      await convert(app, root.referralCode, 'root');
    });

    it("reports a referrer's referrals, clicks, conversions and rewards earned and pending, by level", async () => {
      const res = await app.api.get(`/users/root/stats?campaignId=${chain.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        userId: 'root',
        campaignId: chain.id,
        referrals: 1,
        clicks: 2,
        conversions: 2,
        rewardsEarned: 16,
        rewardsPending: 10,
        byLevel: [
          { level: 1, conversions: 2, rewardsEarned: 10, rewardsPending: 10 },
          { level: 2, conversions: 1, rewardsEarned: 5, rewardsPending: 0 },
          { level: 3, conversions: 1, rewardsEarned: 1, rewardsPending: 0 },
        ],
        refereeRewards: { earned: 0, pending: 0 },
      });
      const mid = await app.api.get(`/users/mid/stats?campaignId=${chain.id}`);
      expect(mid.body).toMatchObject({ referrals: 1, conversions: 1, rewardsEarned: 15 });
      expect(mid.body.byLevel).toEqual([
        { level: 1, conversions: 1, rewardsEarned: 10, rewardsPending: 0 },
        { level: 2, conversions: 1, rewardsEarned: 5, rewardsPending: 0 },
      ]);
    });

    it('adds up every campaign without campaignId, and answers zeros for a user without activity', async () => {
      const another = await createCampaign(app, { name: 'Another' });
      const { referralCode } = await createReferral(app, another.id, 'root');
      await convert(app, referralCode, 'fresh-customer');
      const all = await app.api.get('/users/root/stats');
      expect(all.body).toMatchObject({ userId: 'root', campaignId: null, referrals: 2, clicks: 2, conversions: 3, rewardsEarned: 26, rewardsPending: 10 });
      const nobody = await app.api.get(`/users/nobody/stats?campaignId=${chain.id}`);
      expect(nobody.body).toEqual({
        userId: 'nobody',
        campaignId: chain.id,
        referrals: 0,
        clicks: 0,
        conversions: 0,
        rewardsEarned: 0,
        rewardsPending: 0,
        byLevel: [],
        refereeRewards: { earned: 0, pending: 0 },
      });
    });

    it("answers 404 for another app's campaign and shows another app nothing of this one's users", async () => {
      expect((await other.api.get(`/users/root/stats?campaignId=${chain.id}`)).status).toBe(404);
      expect((await app.api.get('/users/root/stats?campaignId=cmp_nope')).status).toBe(404);
      const theirs = await other.api.get('/users/root/stats');
      expect(theirs.body).toMatchObject({ referrals: 0, clicks: 0, conversions: 0, rewardsEarned: 0, byLevel: [] });
    });
  });

  it('documents both operations, and how conversionRate is computed', async () => {
    const doc = (await new ApiClient(e2eStack().gatewayUrl).get('/api/v1/openapi.json')).body;
    expect(doc.paths['/api/v1/stats'].get.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'campaignId', in: 'query', required: true })]),
    );
    expect(doc.paths['/api/v1/users/{userId}/stats'].get.responses['200'].content['application/json'].schema).toBeDefined();
    expect(doc.components.schemas.CampaignStats.properties.conversionRate.description).toMatch(/completedReferrals \/ totalReferrals/);
    expect(Object.keys(doc.components.schemas.UserStats.properties)).toEqual(
      expect.arrayContaining(['referrals', 'clicks', 'conversions', 'rewardsEarned', 'rewardsPending', 'byLevel']),
    );
  });
});
