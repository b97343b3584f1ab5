import { createTestApp, eventually, type TestApp } from '@ris/testing';
import { convert, createCampaign, createReferral, expectStatus } from './support/referral-scenario';

const statusAndCode = (res: { status: number; body: any }) => [res.status, res.body?.error?.code];

// Refunds, chargebacks and cancellations through the real gateway: what
// each does to the rewards of the sale, the conversion and the figures.
describe('reversals', () => {
  let app: TestApp;
  let percent: { id: string };
  let seq = 0;

  beforeAll(async () => {
    app = await createTestApp('reversals');
    // 10 % of the sale, at most 50, to the referrer; 5 % to the referee.
    percent = await createCampaign(app, {
      name: 'Share of sale',
      referrerReward: { percent: 10, maxAmount: 50, fulfillmentType: 'DISCOUNT_CODE' },
      refereeReward: { percent: 5, fulfillmentType: 'DISCOUNT_CODE' },
    });
  });

  /** A converted sale of `amount` through a fresh referrer: the conversion id and its rewards by side. */
  async function sale(campaignId: string, amount?: number, referrer = `ref-${(seq += 1)}`) {
    const { referralCode } = await createReferral(app, campaignId, referrer);
    const res = await convert(app, referralCode, `buyer-${(seq += 1)}`, amount === undefined ? {} : { amount });
    const bySide = (side: string) => res.rewards.find((r: any) => r.side === side)?.rewardId as string;
    return { conversionId: res.conversionId as string, referrer, referrerReward: bySide('REFERRER'), refereeReward: bySide('REFEREE') };
  }
  const reverse = (conversionId: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
    app.api.post(`/conversions/${conversionId}/reversals`, body, headers);
  const reward = async (rewardId: string) => (await app.api.get(`/rewards/${rewardId}`)).body.reward;

  it('shrinks share-of-sale rewards in proportion to a partial refund, then takes them back on the rest', async () => {
    const s = await sale(percent.id, 200);
    expect([(await reward(s.referrerReward)).amount, (await reward(s.refereeReward)).amount]).toEqual([20, 10]);

    const partial = expectStatus(await reverse(s.conversionId, { reason: 'REFUND', amount: 50, note: 'one item returned' }), [201], 'partial');
    expect(partial.body.reversal).toMatchObject({ conversionId: s.conversionId, purchaseId: null, reason: 'REFUND', amount: 50, full: false, currency: 'USD', rewardAmountReversed: 7.5, clawbackAmount: 0 });
    expect(partial.body.conversion).toMatchObject({ status: 'CONVERTED', reversedAmount: 50 });
    // By side (REFEREE before REFERRER), then level.
    expect(partial.body.rewards.map((r: any) => [r.reward.side, r.effect, r.fromAmount, r.toAmount])).toEqual([
      ['REFEREE', 'REDUCED', 10, 7.5],
      ['REFERRER', 'REDUCED', 20, 15],
    ]);
    expect(await reward(s.referrerReward)).toMatchObject({ status: 'APPROVED', amount: 15, earnedAmount: 20, reversedAmount: 5, reversalReason: 'REFUND' });

    // More than what is left: refused, nothing changed.
    expect(statusAndCode(await reverse(s.conversionId, { reason: 'REFUND', amount: 150.01 }))).toEqual([422, 'REVERSAL_EXCEEDS_SALE']);

    // The rest, after a claim: the code no longer validates, and says why.
    const code = (await app.api.post(`/rewards/${s.referrerReward}/claim`)).body.discountCode;
    const rest = expectStatus(await reverse(s.conversionId, { reason: 'CHARGEBACK' }), [201], 'rest');
    expect([rest.body.reversal.amount, rest.body.reversal.full, rest.body.conversion.status, rest.body.conversion.reversedAmount]).toEqual([150, true, 'REVERSED', 200]);
    expect(rest.body.rewards.map((r: any) => [r.effect, r.reward.status])).toEqual([
      ['CANCELLED', 'CANCELLED'],
      ['CANCELLED', 'CANCELLED'],
    ]);
    expect((await app.api.get(`/rewards/validate?code=${code}`)).body).toMatchObject({ valid: false, reason: 'REVERSED' });

    // Reversed in full already: the first full reversal answers, nothing changes.
    const again = await reverse(s.conversionId, { reason: 'REFUND' });
    expect([again.status, again.body.reversal.id]).toEqual([200, rest.body.reversal.id]);
    expect(statusAndCode(await reverse(s.conversionId, { reason: 'REFUND', amount: 1 }))).toEqual([422, 'REVERSAL_EXCEEDS_SALE']);

    const listed = await app.api.get(`/conversions/${s.conversionId}/reversals`);
    expect(listed.body.reversals.map((r: any) => r.id)).toEqual([rest.body.reversal.id, partial.body.reversal.id]);
  });

  it('claws back a redeemed reward instead of cancelling it, and lists what its owner owes', async () => {
    const s = await sale(percent.id, 300, 'clawed');
    await app.api.post(`/rewards/${s.referrerReward}/claim`);
    expectStatus(await app.api.post('/rewards/redeem', { rewardId: s.referrerReward, userId: 'clawed' }), [200], 'redeem');
    const res = expectStatus(await reverse(s.conversionId, { reason: 'REFUND', amount: 100 }), [201], 'partial');
    expect(res.body.rewards.find((r: any) => r.reward.side === 'REFERRER')).toMatchObject({ effect: 'CLAWBACK', fromAmount: 30, toAmount: 20, clawbackAmount: 10, reward: { status: 'PAID', amount: 30 } });
    expect(res.body.reversal).toMatchObject({ clawbackAmount: 10, rewardAmountReversed: 5 });
    const owed = await app.api.get('/rewards/clawbacks?userId=clawed');
    expect(owed.status).toBe(200);
    expect(owed.body.clawbacks).toEqual([
      expect.objectContaining({ rewardId: s.referrerReward, userId: 'clawed', conversionId: s.conversionId, reversalId: res.body.reversal.id, amount: 10, currency: 'USD', reason: 'REFUND' }),
    ]);
    expect(owed.body.totals).toEqual([{ currency: 'USD', amount: 10 }]);
  });

  it('takes back a fixed reward only on a full reversal, and a sale without an amount only in full', async () => {
    const fixed = await createCampaign(app, { name: 'Fixed' });
    const s = await sale(fixed.id, 80);
    const partial = expectStatus(await reverse(s.conversionId, { reason: 'REFUND', amount: 20 }), [201], 'partial');
    expect(partial.body.rewards.map((r: any) => r.effect)).toEqual(['UNCHANGED']);
    const noAmount = await sale(fixed.id);
    expect(statusAndCode(await reverse(noAmount.conversionId, { reason: 'REFUND', amount: 5 }))).toEqual([422, 'AMOUNT_NOT_REVERSIBLE']);
    const full = expectStatus(await reverse(noAmount.conversionId, { reason: 'CANCELLATION' }), [201], 'full');
    expect([full.body.conversion.status, full.body.rewards[0].effect]).toEqual(['REVERSED', 'CANCELLED']);
  });

  it('answers a retry with the same Idempotency-Key with the first reversal, and refuses what is not a converted sale', async () => {
    const s = await sale(percent.id, 100);
    const key = { 'idempotency-key': `rev-${s.conversionId}` };
    const first = await reverse(s.conversionId, { reason: 'REFUND', amount: 10 }, key);
    const retry = await reverse(s.conversionId, { reason: 'REFUND', amount: 10 }, key);
    // The gateway answers the retry as it answered the first try.
    expect([first.status, retry.status, retry.body.reversal.id]).toEqual([201, 201, first.body.reversal.id]);
    expect((await app.api.get(`/conversions?userId=${s.referrer}`)).body.conversions[0].reversedAmount).toBe(10);
    // Five full reversals at once, no key: one reverses, the others answer it and change nothing.
    const fulls = await Promise.all(Array.from({ length: 5 }, () => reverse(s.conversionId, { reason: 'CHARGEBACK' })));
    expect(fulls.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(fulls.map((r) => r.body.reversal.id)).size).toBe(1);
    expect(fulls[0].body.conversion).toMatchObject({ status: 'REVERSED', reversedAmount: 100 });
    expect(statusAndCode(await reverse('conv_nope', { reason: 'REFUND' }))).toEqual([404, 'NOT_FOUND']);
    expect(statusAndCode(await reverse(s.conversionId, { reason: 'OOPS' }))).toEqual([400, 'VALIDATION_ERROR']);
    expect(statusAndCode(await reverse(s.conversionId, { reason: 'REFUND', amount: -1 }))).toEqual([400, 'VALIDATION_ERROR']);
    const other = await createTestApp('reversals other');
    expect(statusAndCode(await other.api.post(`/conversions/${s.conversionId}/reversals`, { reason: 'REFUND' }))).toEqual([404, 'NOT_FOUND']);
  });

  it('counts reversals and shows reward value net of them', async () => {
    const campaign = await createCampaign(app, { name: 'Figures', referrerReward: { percent: 10, fulfillmentType: 'MANUAL' } });
    const a = await sale(campaign.id, 100);
    await sale(campaign.id, 50);
    await reverse(a.conversionId, { reason: 'REFUND', amount: 40 });
    const stats = await eventually(
      () => app.api.get(`/stats?campaignId=${campaign.id}`),
      (r) => r.body.totalReversals === 1,
      10_000,
    );
    expect(stats.body).toMatchObject({ totalConversions: 2, totalReversals: 1, totalRewardValue: 11 });
    const series = await eventually(
      () => app.api.get(`/stats/timeseries?campaignId=${campaign.id}&interval=day`),
      (r) => r.body.buckets?.some((b: any) => b.reversals === 1),
      10_000,
    );
    expect(series.body.buckets.reduce((sum: number, b: any) => sum + b.rewardValue, 0)).toBe(11);
  });

  it('decides reversals racing claims and redemptions: every reward ends in one consistent state', async () => {
    const race = await createCampaign(app, { name: 'Race', referrerReward: { amount: 10, fulfillmentType: 'DISCOUNT_CODE' } });
    const sales = await Promise.all(Array.from({ length: 34 }, (_, i) => sale(race.id, 100, `racer-${i}`)));
    // 102 concurrent tries: a full reversal, a claim and a redemption of each reward.
    await Promise.all(
      sales.flatMap((s) => [
        reverse(s.conversionId, { reason: 'CHARGEBACK' }),
        app.api.post(`/rewards/${s.referrerReward}/claim`),
        app.api.post('/rewards/redeem', { rewardId: s.referrerReward, userId: s.referrer }),
      ]),
    );
    const owed = new Map<string, number>();
    for (const c of (await app.api.get('/rewards/clawbacks?limit=100')).body.clawbacks) owed.set(c.rewardId, c.amount);
    for (const s of sales) {
      const r = await reward(s.referrerReward);
      if (r.status === 'PAID') {
        expect([s.referrerReward, owed.get(s.referrerReward)]).toEqual([s.referrerReward, 10]);
      } else {
        expect([s.referrerReward, r.status, owed.has(s.referrerReward)]).toEqual([s.referrerReward, 'CANCELLED', false]);
        if (r.discountCode) expect((await app.api.get(`/rewards/validate?code=${r.discountCode}`)).body.valid).toBe(false);
      }
    }
  });
});
