import { createTestApp, type TestApp } from '@ris/testing';

const reward = { amount: 10, fulfillmentType: 'DISCOUNT_CODE' };

describe('campaigns', () => {
  let app: TestApp;
  let other: TestApp;

  beforeAll(async () => {
    [app, other] = await Promise.all([createTestApp('campaigns'), createTestApp('campaigns other')]);
  });

  it('creates a campaign with defaults and returns it', async () => {
    const res = await app.api.post('/campaigns', { name: ' Spring launch ', referrerReward: reward, extraField: 'ignored' });
    expect(res.status).toBe(201);
    expect(res.body.campaign).toEqual({
      id: expect.stringMatching(/^cmp_/),
      name: 'Spring launch',
      status: 'ACTIVE',
      referrerReward: reward,
      refereeReward: null,
      levels: [],
      attributionWindowDays: 30,
      maxRewardsPerReferrer: null,
      fraud: { flagThreshold: 50 },
      rewardCodeValidityDays: 90,
      landingUrl: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: expect.any(String),
    });
    const got = await app.api.get(`/campaigns/${res.body.campaign.id}`);
    expect(got.status).toBe(200);
    expect(got.body.campaign).toEqual(res.body.campaign);
  });

  it('stores double-sided, multi-level settings', async () => {
    const res = await app.api.post('/campaigns', {
      name: 'Multi',
      status: 'PAUSED',
      referrerReward: reward,
      refereeReward: { amount: 5, fulfillmentType: 'COUPON_CODE' },
      levels: [
        { level: 3, amount: 1 },
        { level: 2, amount: 2.5 },
      ],
      attributionWindowDays: 7,
      maxRewardsPerReferrer: 3,
      fraud: { flagThreshold: 70 },
      rewardCodeValidityDays: 14,
    });
    expect(res.status).toBe(201);
    expect(res.body.campaign).toMatchObject({
      status: 'PAUSED',
      refereeReward: { amount: 5, fulfillmentType: 'COUPON_CODE' },
      levels: [
        { level: 2, amount: 2.5 },
        { level: 3, amount: 1 },
      ],
      attributionWindowDays: 7,
      maxRewardsPerReferrer: 3,
      fraud: { flagThreshold: 70 },
      rewardCodeValidityDays: 14,
    });
  });

  it.each([
    [{ referrerReward: reward }, 'body.name'],
    [{ name: 'x' }, 'body.referrerReward'],
    [{ name: 'x', referrerReward: { amount: -5, fulfillmentType: 'MANUAL' } }, 'body.referrerReward.amount'],
    [{ name: 'x', referrerReward: reward, status: 'RUNNING' }, 'body.status'],
    [{ name: 'x', referrerReward: reward, levels: [{ level: 1, amount: 1 }] }, 'body.levels.0.level'],
    [{ name: 'x', referrerReward: reward, levels: [{ level: 2, amount: 1 }, { level: 2, amount: 3 }] }, 'body.levels'],
    [{ name: 'x', referrerReward: reward, fraud: { flagThreshold: 101 } }, 'body.fraud.flagThreshold'],
    [{ name: 'x', referrerReward: reward, attributionWindowDays: 1.5 }, 'body.attributionWindowDays'],
  ])('refuses %j (400 on %s)', async (body, field) => {
    const res = await app.api.post('/campaigns', body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.issues.map((i: { field: string }) => i.field)).toContain(field);
  });

  it('updates only the fields sent, and can clear optional ones', async () => {
    const created = await app.api.post('/campaigns', {
      name: 'Patch me',
      referrerReward: reward,
      refereeReward: reward,
      maxRewardsPerReferrer: 2,
      levels: [{ level: 2, amount: 1 }],
    });
    const id = created.body.campaign.id;
    const res = await app.api.patch(`/campaigns/${id}`, { status: 'ENDED', refereeReward: null, maxRewardsPerReferrer: null });
    expect(res.status).toBe(200);
    expect(res.body.campaign).toMatchObject({
      name: 'Patch me',
      status: 'ENDED',
      refereeReward: null,
      maxRewardsPerReferrer: null,
      levels: [{ level: 2, amount: 1 }],
    });
    expect(res.body.campaign.updatedAt >= created.body.campaign.updatedAt).toBe(true);
    const levels = await app.api.patch(`/campaigns/${id}`, { levels: [] });
    expect(levels.body.campaign.levels).toEqual([]);
    expect((await app.api.patch(`/campaigns/${id}`, { status: 'DONE' })).status).toBe(400);
    expect((await app.api.patch('/campaigns/cmp_missing', { name: 'x' })).status).toBe(404);
  });

  it('lists newest first with pagination and a status filter', async () => {
    const lister = await createTestApp('campaign list');
    for (let i = 0; i < 5; i += 1) {
      await lister.api.post('/campaigns', { name: `c${i}`, referrerReward: reward, status: i % 2 ? 'PAUSED' : 'ACTIVE' });
    }
    const page1 = await lister.api.get('/campaigns?limit=2');
    expect(page1.status).toBe(200);
    expect(page1.body.campaigns.map((c: { name: string }) => c.name)).toEqual(['c4', 'c3']);
    expect(page1.body.pagination).toEqual({ page: 1, limit: 2, totalItems: 5, totalPages: 3 });
    const page3 = await lister.api.get('/campaigns?limit=2&page=3');
    expect(page3.body.campaigns.map((c: { name: string }) => c.name)).toEqual(['c0']);
    const paused = await lister.api.get('/campaigns?status=PAUSED');
    expect(paused.body.campaigns.map((c: { name: string }) => c.name)).toEqual(['c3', 'c1']);
    expect(paused.body.pagination).toEqual({ page: 1, limit: 25, totalItems: 2, totalPages: 1 });
    for (const bad of ['limit=0', 'limit=101', 'page=0', 'page=abc', 'limit=2.5']) {
      const res = await lister.api.get(`/campaigns?${bad}`);
      expect([bad, res.status]).toEqual([bad, 400]);
    }
  });

  it("never shows or changes another app's campaign", async () => {
    const mine = await app.api.post('/campaigns', { name: 'Private', referrerReward: reward });
    const id = mine.body.campaign.id;
    expect((await other.api.get(`/campaigns/${id}`)).status).toBe(404);
    expect((await other.api.patch(`/campaigns/${id}`, { name: 'Hijacked' })).status).toBe(404);
    const list = await other.api.get('/campaigns');
    expect(list.body.campaigns.map((c: { id: string }) => c.id)).not.toContain(id);
    expect((await app.api.get(`/campaigns/${id}`)).body.campaign.name).toBe('Private');
  });
});
