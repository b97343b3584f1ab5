import { ApiClient, createTestApp, e2eStack, type TestApp } from '@ris/testing';

const reward = { amount: 10, fulfillmentType: 'DISCOUNT_CODE' };
/** A fixed rule as answers show it: the percent and cap null. */
const fixed = (rule: { amount: number; fulfillmentType: string }) => ({ ...rule, percent: null, maxAmount: null });

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
      effectiveStatus: 'ACTIVE',
      startsAt: null,
      endsAt: null,
      referrerReward: fixed(reward),
      refereeReward: null,
      levels: [],
      attributionWindowDays: 30,
      maxRewardsPerReferrer: null,
      fraud: { flagThreshold: 50 },
      rewardCodeValidityDays: 90,
      landingUrl: null,
      currency: 'USD',
      holdDays: 0,
      recurringMonths: null,
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

// The schedule decides by the clock: every bound here is a year or more away from now, so no run is near one.
describe('a campaign’s schedule', () => {
  let app: TestApp;
  const YEAR_MS = 365 * 86_400_000;
  const inYears = (n: number) => new Date(Date.now() + n * YEAR_MS).toISOString();
  const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

  beforeAll(async () => {
    app = await createTestApp('campaign schedule');
  });

  const create = async (fields: Record<string, unknown>) => {
    const res = await app.api.post('/campaigns', { name: 'Scheduled', referrerReward: reward, landingUrl: 'https://shop.example.com/', ...fields });
    expect(res.status).toBe(201);
    return res.body.campaign;
  };
  const referral = (campaignId: string, referrerId: string) => app.api.post('/referrals', { campaignId, referrerId });
  const conversion = (referralCode: string, refereeId: string) => app.api.post('/conversions', { referralCode, refereeId });
  const clicksOf = async (campaignId: string) => (await app.api.get(`/stats?campaignId=${campaignId}`)).body.totalClicks as number;
  const visit = (code: string) => fetch(`${e2eStack().gatewayUrl}/r/${code}`, { headers: { 'user-agent': BROWSER }, redirect: 'manual' });

  it('stores the bounds sent (any offset, answered in UTC) and reads SCHEDULED before the start, its status still ACTIVE', async () => {
    const created = await create({ startsAt: '2099-05-01T10:00:00+02:00', endsAt: '2099-06-01T00:00:00Z' });
    expect(created).toMatchObject({ status: 'ACTIVE', effectiveStatus: 'SCHEDULED', startsAt: '2099-05-01T08:00:00.000Z', endsAt: '2099-06-01T00:00:00.000Z' });
    expect((await app.api.get(`/campaigns/${created.id}`)).body.campaign).toEqual(created);
    const listed = (await app.api.get('/campaigns?status=ACTIVE')).body.campaigns.find((c: { id: string }) => c.id === created.id);
    expect(listed.effectiveStatus).toBe('SCHEDULED');
    const ids = async (query: string) => (await app.api.get(`/campaigns?${query}`)).body.campaigns.map((c: { id: string }) => c.id);
    expect(await ids('effectiveStatus=SCHEDULED')).toContain(created.id);
    expect(await ids('effectiveStatus=ACTIVE')).not.toContain(created.id);
    expect((await app.api.get('/campaigns?effectiveStatus=RUNNING')).status).toBe(400);
  });

  it('before the start: 422 CAMPAIGN_INACTIVE on POST /referrals and POST /conversions, hosted link visits uncounted; clearing the start lets both through', async () => {
    const campaign = await create({});
    const { referralCode } = (await referral(campaign.id, 'early-bird')).body;
    const scheduled = await app.api.patch(`/campaigns/${campaign.id}`, { startsAt: inYears(1) });
    expect([scheduled.status, scheduled.body.campaign.effectiveStatus]).toEqual([200, 'SCHEDULED']);

    const refused = await referral(campaign.id, 'too-soon');
    expect([refused.status, refused.body.error.code, refused.body.error.details.effectiveStatus]).toEqual([422, 'CAMPAIGN_INACTIVE', 'SCHEDULED']);
    const notConverted = await conversion(referralCode, 'friend-too-soon');
    expect([notConverted.status, notConverted.body.error.code]).toEqual([422, 'CAMPAIGN_INACTIVE']);
    // The referrer's existing referral is answered again, as on a paused campaign; POST /clicks still counts, a hosted link does not.
    expect((await referral(campaign.id, 'early-bird')).status).toBe(200);
    expect((await visit(referralCode)).status).toBe(302);
    expect(await clicksOf(campaign.id)).toBe(0);

    const cleared = await app.api.patch(`/campaigns/${campaign.id}`, { startsAt: null });
    expect(cleared.body.campaign).toMatchObject({ startsAt: null, effectiveStatus: 'ACTIVE' });
    expect((await conversion(referralCode, 'friend-too-soon')).status).toBe(201);
    expect((await referral(campaign.id, 'too-soon')).status).toBe(201);
    expect((await visit(referralCode)).status).toBe(302);
    expect(await clicksOf(campaign.id)).toBe(1);
  });

  it('after the end: ENDED by itself, 422 CAMPAIGN_INACTIVE on POST /referrals and POST /conversions', async () => {
    const ended = await create({ endsAt: '2020-01-01T00:00:00Z' });
    expect([ended.status, ended.effectiveStatus]).toEqual(['ACTIVE', 'ENDED']);
    const refused = await referral(ended.id, 'late');
    expect([refused.status, refused.body.error.code, refused.body.error.details.effectiveStatus]).toEqual([422, 'CAMPAIGN_INACTIVE', 'ENDED']);

    const campaign = await create({});
    const { referralCode } = (await referral(campaign.id, 'last-call')).body;
    const over = await app.api.patch(`/campaigns/${campaign.id}`, { endsAt: new Date(Date.now() - 1000).toISOString() });
    expect(over.body.campaign.effectiveStatus).toBe('ENDED');
    const notConverted = await conversion(referralCode, 'friend-too-late');
    expect([notConverted.status, notConverted.body.error.code]).toEqual([422, 'CAMPAIGN_INACTIVE']);
  });

  it('refuses an end not after the start: 422 INVALID_RANGE naming endsAt, on create and against the stored start, changing nothing', async () => {
    const startsAt = inYears(2);
    for (const endsAt of [startsAt, inYears(1)]) {
      const res = await app.api.post('/campaigns', { name: 'Backwards', referrerReward: reward, startsAt, endsAt });
      expect([res.status, res.body.error.code, res.body.error.details.field]).toEqual([422, 'INVALID_RANGE', 'endsAt']);
    }
    const campaign = await create({ startsAt });
    const res = await app.api.patch(`/campaigns/${campaign.id}`, { name: 'Renamed', endsAt: inYears(1) });
    expect([res.status, res.body.error.code, res.body.error.details.field]).toEqual([422, 'INVALID_RANGE', 'endsAt']);
    expect((await app.api.get(`/campaigns/${campaign.id}`)).body.campaign).toMatchObject({ name: 'Scheduled', endsAt: null });
    for (const [body, field] of [
      [{ startsAt: '2030-02-30T00:00:00Z' }, 'body.startsAt'],
      [{ endsAt: 'tomorrow' }, 'body.endsAt'],
      [{ startsAt: 1_900_000_000 }, 'body.startsAt'],
    ] as const) {
      const bad = await app.api.patch(`/campaigns/${campaign.id}`, body);
      expect([bad.status, bad.body.error.details.issues.map((i: { field: string }) => i.field)]).toEqual([400, [field]]);
    }
  });
});

describe('a campaign’s commission: fixed or a percent of the sale, its currency, holding period and recurrence', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp('campaign commission');
  });

  const share = { percent: 10, maxAmount: 50, fulfillmentType: 'DISCOUNT_CODE' };

  it('stores a percentage with a cap, a level in percent, a currency, a holding period and recurring months, and answers each rule with both shapes', async () => {
    const res = await app.api.post('/campaigns', {
      name: 'Commission',
      currency: 'EUR',
      holdDays: 30,
      recurringMonths: 12,
      referrerReward: share,
      refereeReward: { amount: 5, fulfillmentType: 'COUPON_CODE' },
      levels: [{ level: 2, percent: 2.5 }],
    });
    expect(res.status).toBe(201);
    expect(res.body.campaign).toMatchObject({
      currency: 'EUR',
      holdDays: 30,
      recurringMonths: 12,
      referrerReward: { amount: null, percent: 10, maxAmount: 50, fulfillmentType: 'DISCOUNT_CODE' },
      refereeReward: { amount: 5, percent: null, maxAmount: null, fulfillmentType: 'COUPON_CODE' },
      levels: [{ level: 2, amount: null, percent: 2.5, maxAmount: null }],
    });
    const { id } = res.body.campaign;
    expect((await app.api.get(`/campaigns/${id}`)).body.campaign).toEqual(res.body.campaign);

    // A campaign as read can be sent back as it is (nulls and its own currency included).
    const { name, referrerReward, refereeReward, levels, currency, holdDays, recurringMonths } = res.body.campaign;
    const echoed = await app.api.patch(`/campaigns/${id}`, { name, referrerReward, refereeReward, levels, currency, holdDays, recurringMonths });
    expect([echoed.status, echoed.body.campaign.referrerReward, echoed.body.campaign.levels]).toEqual([200, referrerReward, levels]);

    // null ends the recurrence; a rule changes kind as a whole.
    const patched = await app.api.patch(`/campaigns/${id}`, { recurringMonths: null, holdDays: 0, referrerReward: { amount: 3, fulfillmentType: 'MANUAL' } });
    expect(patched.body.campaign).toMatchObject({ recurringMonths: null, holdDays: 0, referrerReward: { amount: 3, percent: null, maxAmount: null }, currency: 'EUR' });
  });

  it('keeps the currency fixed: another is 422 CURRENCY_MISMATCH naming both, changing nothing', async () => {
    const created = (await app.api.post('/campaigns', { name: 'Yen', currency: 'JPY', referrerReward: reward })).body.campaign;
    const res = await app.api.patch(`/campaigns/${created.id}`, { currency: 'USD', name: 'Renamed' });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'CURRENCY_MISMATCH', details: { campaignId: created.id, currency: 'USD', campaignCurrency: 'JPY' } });
    expect((await app.api.get(`/campaigns/${created.id}`)).body.campaign).toMatchObject({ name: 'Yen', currency: 'JPY' });
  });

  it.each([
    [{ referrerReward: { amount: 10, percent: 5, fulfillmentType: 'MANUAL' } }, 'body.referrerReward.percent'],
    [{ referrerReward: { fulfillmentType: 'MANUAL' } }, 'body.referrerReward.amount'],
    [{ referrerReward: { amount: null, percent: null, fulfillmentType: 'MANUAL' } }, 'body.referrerReward.amount'],
    [{ referrerReward: { percent: 0, fulfillmentType: 'MANUAL' } }, 'body.referrerReward.percent'],
    [{ referrerReward: { percent: 100.01, fulfillmentType: 'MANUAL' } }, 'body.referrerReward.percent'],
    [{ referrerReward: { amount: 10, maxAmount: 5, fulfillmentType: 'MANUAL' } }, 'body.referrerReward.maxAmount'],
    [{ referrerReward: { percent: 10, maxAmount: 0, fulfillmentType: 'MANUAL' } }, 'body.referrerReward.maxAmount'],
    [{ refereeReward: { amount: 1, percent: 1, fulfillmentType: 'MANUAL' } }, 'body.refereeReward.percent'],
    [{ levels: [{ level: 2, percent: -1 }] }, 'body.levels.0.percent'],
    [{ levels: [{ level: 2 }] }, 'body.levels.0.amount'],
    [{ currency: 'usd' }, 'body.currency'],
    [{ currency: 'XYZ' }, 'body.currency'],
    [{ holdDays: 366 }, 'body.holdDays'],
    [{ holdDays: -1 }, 'body.holdDays'],
    [{ holdDays: 1.5 }, 'body.holdDays'],
    [{ recurringMonths: 0 }, 'body.recurringMonths'],
    [{ recurringMonths: 121 }, 'body.recurringMonths'],
  ])('refuses %j (400 on %s)', async (fields, field) => {
    const res = await app.api.post('/campaigns', { name: 'x', referrerReward: reward, ...fields });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.issues.map((i: { field: string }) => i.field)).toContain(field);
  });

  it('describes the either/or in the OpenAPI document: exactly one of amount and percent', async () => {
    const doc = (await new ApiClient(e2eStack().gatewayUrl).get('/api/v1/openapi.json')).body;
    const input = doc.components.schemas.RewardRuleInput;
    expect(input.oneOf.map((branch: { required: string[] }) => branch.required)).toEqual([['amount'], ['percent']]);
    expect(input.properties.percent).toMatchObject({ exclusiveMinimum: 0, maximum: 100 });
    expect(doc.components.schemas.Currency.enum).toEqual(expect.arrayContaining(['USD', 'EUR', 'JPY']));
    expect(doc.components.schemas.CreateCampaignRequest.properties.holdDays).toMatchObject({ minimum: 0, maximum: 365 });
  });
});
