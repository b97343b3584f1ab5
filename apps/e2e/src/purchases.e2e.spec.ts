import type { Connection } from 'mongoose';
import { createTestApp, eventually, type TestApp } from '@ris/testing';
import { convert, createCampaign, createReferral, expectStatus, serviceDatabase } from './support/referral-scenario';

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const DAY_MS = 86_400_000;

/** A reward or a purchase as the answers list them (the fields read here). */
type Earned = { userId: string; amount: number };

// Recurring purchases over HTTP through the real gateway and services: a
// converted referee's later payments earn the campaign's rules again (each
// level's referrer and the referee, percentages capped), a replay of the
// same payment earns nothing more, refusals store nothing, and the
// campaign's figures count what the purchases earned.
describe('purchases', () => {
  let app: TestApp;
  let other: TestApp;
  let referralDb: Connection;
  let gatewayDb: Connection;

  beforeAll(async () => {
    [app, other, referralDb, gatewayDb] = await Promise.all([
      createTestApp('purchases'),
      createTestApp('purchases other'),
      serviceDatabase('referral'),
      serviceDatabase('gateway'),
    ]);
  });

  afterAll(async () => {
    await Promise.all([referralDb.close(), gatewayDb.close()]);
  });

  /** A subscription campaign: the referrer earns 10 % of each payment (at most 25), the referee 5 %. */
  const subscription = (fields: Record<string, unknown> = {}) =>
    createCampaign(app, {
      name: 'Subscription',
      referrerReward: { percent: 10, maxAmount: 25, fulfillmentType: 'DISCOUNT_CODE' },
      refereeReward: { percent: 5, fulfillmentType: 'COUPON_CODE' },
      recurringMonths: 12,
      ...fields,
    });

  /** A referee of `referrerId` converted (100) in a campaign: the conversion's id. */
  async function converted(campaignId: string, referrerId: string, refereeId: string, target: TestApp = app): Promise<string> {
    const { referralCode } = await createReferral(target, campaignId, referrerId);
    return (await convert(target, referralCode, refereeId, { amount: 100 })).conversionId;
  }

  const buy = (conversionId: string, body: Record<string, unknown>, headers?: Record<string, string>, target: TestApp = app) =>
    target.api.post(`/conversions/${conversionId}/purchases`, body, headers);

  it('earns the referrer and the referee again on every purchase, capped, and counts it in the campaign figures', async () => {
    const campaign = await subscription();
    const { referralCode } = await createReferral(app, campaign.id, 'alice');
    const conversion = await convert(app, referralCode, 'bob', { amount: 100 });
    const conversionId = conversion.conversionId;

    const first = await buy(conversionId, { amount: 120, currency: 'USD' });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      purchase: {
        id: expect.stringMatching(/^pur_/),
        conversionId,
        campaignId: campaign.id,
        refereeId: 'bob',
        amount: 120,
        currency: 'USD',
        externalId: null,
        occurredAt: expect.stringMatching(TIMESTAMP),
        createdAt: expect.stringMatching(TIMESTAMP),
        reversedAmount: 0,
        status: 'ACTIVE',
      },
      rewards: [
        { rewardId: expect.stringMatching(/^rwd_/), userId: 'alice', side: 'REFERRER', level: 1, amount: 12, status: 'APPROVED' },
        { rewardId: expect.stringMatching(/^rwd_/), userId: 'bob', side: 'REFEREE', level: 1, amount: 6, status: 'APPROVED' },
      ],
    });
    // A reward of the purchase is a reward like any other, of the conversion.
    const reward = await app.api.get(`/rewards/${first.body.rewards[0].rewardId}`);
    expect(reward.body.reward).toMatchObject({ userId: 'alice', conversionId, campaignId: campaign.id, amount: 12, status: 'APPROVED' });

    // 10 % of 400 is 40: capped at 25.
    const second = await buy(conversionId, { amount: 400 });
    expect(second.status).toBe(201);
    expect(second.body.rewards.map((r: Earned) => [r.userId, r.amount])).toEqual([
      ['alice', 25],
      ['bob', 20],
    ]);

    // 15 (the conversion) + 18 + 45.
    expect((await app.api.get(`/stats?campaignId=${campaign.id}`)).body).toMatchObject({ totalConversions: 1, totalRewardValue: 78 });
    expect((await app.api.get(`/referrals/${referralCode}`)).body.referral).toMatchObject({ rewardAmount: 10 + 12 + 25 });
    const records = await app.api.get(`/conversions?referralCode=${referralCode}`);
    expect(records.body.conversions).toEqual([expect.objectContaining({ id: conversionId, rewardAmount: 10 + 12 + 25 })]);
    expect((await app.api.get('/users/alice/rewards')).body.rewards).toHaveLength(3);
  });

  it('answers the same externalId again with the first purchase and no second reward (200), and replays an Idempotency-Key', async () => {
    const campaign = await subscription();
    const conversionId = await converted(campaign.id, 'carol', 'dan');

    const first = await buy(conversionId, { amount: 50, externalId: 'inv-2026-001' });
    expect(first.status).toBe(201);
    expect(first.body.purchase).toMatchObject({ externalId: 'inv-2026-001', amount: 50 });
    // Another amount, another key: the same invoice, answered as it was recorded.
    const again = await buy(conversionId, { amount: 70, externalId: 'inv-2026-001' }, { 'idempotency-key': 'another-try' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);

    const keyed = await buy(conversionId, { amount: 30 }, { 'idempotency-key': 'renewal-2026-02' });
    const replayed = await buy(conversionId, { amount: 30 }, { 'idempotency-key': 'renewal-2026-02' });
    expect([keyed.status, replayed.status, replayed.headers.get('idempotent-replayed')]).toEqual([201, 201, 'true']);
    expect(replayed.body).toEqual(keyed.body);

    // A retry whose first answer was lost runs again as the same operation: the same purchase, found (200).
    const lostKey = 'renewal-2026-03';
    const lost = await buy(conversionId, { amount: 20 }, { 'idempotency-key': lostKey });
    expect(lost.status).toBe(201);
    const reset = await gatewayDb
      .collection('idempotency_keys')
      .updateOne({ _id: `${app.appId}:${lostKey}` as never }, { $set: { state: 'retryable' }, $unset: { sealedBody: 1, status: 1 } });
    expect(reset.modifiedCount).toBe(1);
    const retried = await buy(conversionId, { amount: 20 }, { 'idempotency-key': lostKey });
    expect([retried.status, retried.body]).toEqual([200, lost.body]);

    // Three purchases, each earning once: 15 (the conversion) + 7.5 + 4.5 + 3.
    const list = await app.api.get(`/conversions/${conversionId}/purchases`);
    expect(list.body.pagination.totalItems).toBe(3);
    expect((await app.api.get(`/stats?campaignId=${campaign.id}`)).body.totalRewardValue).toBe(30);
    expect((await app.api.get('/users/carol/rewards')).body.rewards).toHaveLength(4);
  });

  it('lists a conversion’s purchases newest payment first, paginated', async () => {
    const campaign = await subscription();
    const conversionId = await converted(campaign.id, 'erin', 'finn');
    // Recorded in another order than they happened (a payment is dated by the caller, a little ahead of our clock at most).
    const at = (secondsAhead: number) => new Date(Date.now() + secondsAhead * 1000).toISOString();
    for (const [amount, secondsAhead] of [[10, 10], [30, 30], [20, 20]]) {
      expectStatus(await buy(conversionId, { amount, occurredAt: at(secondsAhead) }), [201], `purchase of ${amount}`);
    }
    const page1 = await app.api.get(`/conversions/${conversionId}/purchases?limit=2`);
    expect(page1.status).toBe(200);
    expect(page1.body.pagination).toEqual({ page: 1, limit: 2, totalItems: 3, totalPages: 2 });
    expect(page1.body.purchases.map((p: Earned) => p.amount)).toEqual([30, 20]);
    const page2 = await app.api.get(`/conversions/${conversionId}/purchases?limit=2&page=2`);
    expect(page2.body.purchases.map((p: Earned) => p.amount)).toEqual([10]);
    expect(page2.body.purchases[0]).toMatchObject({ conversionId, refereeId: 'finn', status: 'ACTIVE', externalId: null });

    // Another app's conversion, or none: 404, as for a conversion that never existed.
    expect((await other.api.get(`/conversions/${conversionId}/purchases`)).status).toBe(404);
    expect((await app.api.get('/conversions/conv_nothing/purchases')).body.error.code).toBe('NOT_FOUND');
  });

  it('refuses, storing nothing: an unknown conversion, a campaign that is not recurring, another currency, a date that cannot be', async () => {
    const recurring = await subscription();
    const conversionId = await converted(recurring.id, 'gina', 'hal');

    const unknown = await buy('conv_nothing', { amount: 10 });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'NOT_FOUND']);
    expect((await buy(conversionId, { amount: 10 }, undefined, other)).status).toBe(404);

    const oneOff = await createCampaign(app, { name: 'One-off' });
    const oneOffConversion = await converted(oneOff.id, 'gina', 'ivy');
    const notRecurring = await buy(oneOffConversion, { amount: 10 });
    expect([notRecurring.status, notRecurring.body.error]).toEqual([
      422,
      expect.objectContaining({ code: 'NOT_RECURRING', details: { campaignId: oneOff.id, conversionId: oneOffConversion } }),
    ]);

    const mismatch = await buy(conversionId, { amount: 10, currency: 'EUR' });
    expect([mismatch.status, mismatch.body.error]).toEqual([
      422,
      expect.objectContaining({ code: 'CURRENCY_MISMATCH', details: { campaignId: recurring.id, currency: 'EUR', campaignCurrency: 'USD' } }),
    ]);
    const future = await buy(conversionId, { amount: 10, occurredAt: new Date(Date.now() + DAY_MS).toISOString() });
    expect([future.status, future.body.error.code]).toEqual([422, 'OCCURRED_AT_INVALID']);
    const before = await buy(conversionId, { amount: 10, occurredAt: '2020-01-01T00:00:00Z' });
    expect([before.status, before.body.error.code]).toEqual([422, 'OCCURRED_AT_INVALID']);
    const invalid = await buy(conversionId, { amount: 0 });
    expect([invalid.status, invalid.body.error.details.issues]).toEqual([400, [{ field: 'body.amount', message: 'must be more than 0' }]]);

    expect((await app.api.get(`/conversions/${conversionId}/purchases`)).body.pagination.totalItems).toBe(0);
    expect((await app.api.get(`/stats?campaignId=${recurring.id}`)).body.totalRewardValue).toBe(15);
  });

  it('refuses a purchase after the recurring window, judged by when it happened (OUTSIDE_RECURRING_WINDOW)', async () => {
    const campaign = await subscription({ recurringMonths: 1 });
    const conversionId = await converted(campaign.id, 'jo', 'kai');
    // The conversion two months ago: its one recurring month is over (no API moves a conversion back in time). Moved once
    // its events went out: their clean-up rewrites the whole record on FerretDB, and would put the old time back.
    const records = referralDb.collection('conversions');
    await eventually(() => records.findOne({ _id: conversionId as never }), (record) => record?.outboxPending !== true);
    const convertedAt = new Date(Date.now() - 62 * DAY_MS);
    const moved = await records.updateMany({ appId: app.appId, conversionId } as never, { $set: { convertedAt } });
    expect(moved.modifiedCount).toBe(1);

    const late = await buy(conversionId, { amount: 10 });
    expect(late.status).toBe(422);
    expect(late.body.error).toMatchObject({
      code: 'OUTSIDE_RECURRING_WINDOW',
      details: { conversionId, recurringMonths: 1, convertedAt: convertedAt.toISOString(), windowEndsAt: expect.stringMatching(TIMESTAMP) },
    });
    // A payment made inside the window, reported late, still earns.
    const inside = await buy(conversionId, { amount: 10, occurredAt: new Date(convertedAt.getTime() + 7 * DAY_MS).toISOString() });
    expect(inside.status).toBe(201);
    expect(inside.body.rewards.map((r: Earned) => r.amount)).toEqual([1, 0.5]);
  });
});
