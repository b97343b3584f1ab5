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
      });
    });

    it('leaves cancelled rewards out of the reward value', async () => {
      const campaign = await createCampaign(app, { name: 'Rejected' });
      const { referralCode } = await createReferral(app, campaign.id, 'self-dealer');
      await convert(app, referralCode, 'honest-buyer');
      const cheat = await convert(app, referralCode, 'self-dealer');
      expect(cheat.conversionStatus).toBe('FLAGGED');
      expect((await app.api.get(`/stats?campaignId=${campaign.id}`)).body.totalRewardValue).toBe(20);
      const flag = (await app.api.get('/fraud/flags?status=OPEN&limit=100')).body.flags.find((f: { conversionId: string }) => f.conversionId === cheat.conversionId);
      await app.api.post(`/fraud/flags/${flag.id}/resolve`, { decision: 'REJECT' });
      expect((await app.api.get(`/stats?campaignId=${campaign.id}`)).body).toMatchObject({ totalRewardValue: 10, totalConversions: 2 });
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
