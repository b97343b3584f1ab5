import { Code, ConnectError } from '@connectrpc/connect';
import { RewardSide } from '@ris/contracts';
import { errorReason, toConnectError } from '@ris/rpc';
import { campaignModel } from '../campaigns/campaign.model';
import { NO_CONTEXT, serviceOnTestDatabase } from '../testing/service-on-test-database';
import { conversionModel } from './conversion.model';

// Commissions on the conversion path against the real database (the reward
// service stood in for): percentage rules paid on the conversion's amount,
// the campaign's currency carried to the records and the rewards, and the
// two refusals that come before anything is stored.
describe('commissions on conversions', () => {
  let svc: Awaited<ReturnType<typeof serviceOnTestDatabase>>;

  beforeAll(async () => {
    svc = await serviceOnTestDatabase('commission');
  });

  afterAll(() => svc.db.drop());

  const convert = (appId: string, referralCode: string, refereeId: string, sale: { amount?: number; currency?: string } = {}) =>
    svc.recorder.record(appId, { referralCode, refereeId, amount: sale.amount ?? null, currency: sale.currency, metadata: null, context: NO_CONTEXT, operationKey: '' });

  /** The refusal as the gateway gets it: its Connect code, reason and details. */
  async function refusal(work: Promise<unknown>) {
    const err: unknown = await work.then(
      () => null,
      (e: unknown) => toConnectError(e),
    );
    if (!(err instanceof ConnectError)) throw new Error(`expected a refusal, got ${String(err)}`);
    return { code: err.code, ...errorReason(err) };
  }

  const rewardsOf = (conversionId: string) =>
    [...svc.issued.values()]
      .filter((r) => r.conversionId === conversionId)
      .map((r) => [RewardSide[r.side], r.level, r.userId, r.amount, r.currency])
      .sort();

  /** top ← mid ← (a referee of mid's code): a chain of two referrers. */
  async function chain(appId: string, campaignId: string) {
    const top = (await svc.referrals.create(appId, { campaignId, referrerId: 'top' })).referral;
    const mid = (await svc.referrals.create(appId, { campaignId, referrerId: 'mid' })).referral;
    await convert(appId, top.code, 'mid', { amount: 100 });
    return mid;
  }

  it('pays the referrer, the referee and a level their percentages of the amount, rounded and capped, in the campaign currency', async () => {
    const campaign = await svc.campaigns.create('app_pct', {
      name: 'share',
      currency: 'EUR',
      referrerReward: { amount: 0, percent: 10, maxAmount: 50, fulfillmentType: 'DISCOUNT_CODE' },
      refereeReward: { amount: 0, percent: 5, fulfillmentType: 'COUPON_CODE' },
      levels: [{ level: 2, amount: 0, percent: 2.5 }],
    });
    const mid = await chain('app_pct', campaign._id);
    const outcome = await convert('app_pct', mid.code, 'buyer', { amount: 999.99, currency: 'EUR' });

    expect(rewardsOf(outcome.root.conversionId)).toEqual([
      ['REFEREE', 1, 'buyer', 50, 'EUR'], // 5 % of 999.99 = 49.9995 → 50.00
      ['REFERRER', 1, 'mid', 50, 'EUR'], // 10 % = 100.00, capped at 50
      ['REFERRER', 2, 'top', 25, 'EUR'], // 2.5 % = 24.99975 → 25.00
    ]);
    expect(outcome.root).toMatchObject({ level: 1, amount: 999.99, currency: 'EUR', rewardAmount: 50, refereeRewardAmount: 50 });
    expect(outcome.upline).toEqual([expect.objectContaining({ level: 2, referrerId: 'top', amount: 999.99, currency: 'EUR', rewardAmount: 25 })]);
    expect(await svc.stats.read('app_pct', campaign._id)).toMatchObject({ totalConversions: 2, totalRewardValue: 10 + 5 + 125 });

    // As the service answers it: the records in the campaign's currency.
    const listed = await svc.rpc.listConversions({ appId: 'app_pct', campaignId: campaign._id, referralCode: mid.code });
    expect(listed.conversions.map((c) => [c.level, c.currency, c.rewardAmount]).sort()).toEqual([
      [1, 'EUR', 50],
      [2, 'EUR', 25],
    ]);
  });

  it('refuses a conversion without amount on a campaign with any percentage rule (a level alone too), before anything is stored', async () => {
    const campaign = await svc.campaigns.create('app_amt', {
      name: 'level share',
      referrerReward: { amount: 10, fulfillmentType: 'MANUAL' },
      levels: [{ level: 2, amount: 0, percent: 1 }],
    });
    const mid = await chain('app_amt', campaign._id);
    const before = svc.issued.size;
    expect(await refusal(convert('app_amt', mid.code, 'no-amount'))).toEqual({
      code: Code.FailedPrecondition,
      reason: 'AMOUNT_REQUIRED',
      details: { campaignId: campaign._id },
    });
    expect(await conversionModel(svc.db).countDocuments({ appId: 'app_amt', refereeId: 'no-amount' })).toBe(0);
    expect(svc.issued.size).toBe(before);
    // With its amount, the same referee converts (the refusal stored nothing that would make it a second conversion).
    expect((await convert('app_amt', mid.code, 'no-amount', { amount: 0 })).root.status).toBe('CONVERTED');
  });

  it("refuses a conversion in another currency than the campaign's, naming both, before anything is stored", async () => {
    const campaign = await svc.campaigns.create('app_cur', { name: 'euros', currency: 'EUR', referrerReward: { amount: 5, fulfillmentType: 'MANUAL' } });
    const { referral } = await svc.referrals.create('app_cur', { campaignId: campaign._id, referrerId: 'ann', refereeId: 'pat' });
    const before = svc.issued.size;
    expect(await refusal(convert('app_cur', referral.code, 'pat', { amount: 20, currency: 'USD' }))).toEqual({
      code: Code.FailedPrecondition,
      reason: 'CURRENCY_MISMATCH',
      details: { campaignId: campaign._id, currency: 'USD', campaignCurrency: 'EUR' },
    });
    // The referee's funnel record is as it was (PENDING), no conversion, no reward.
    expect((await conversionModel(svc.db).find({ appId: 'app_cur', refereeId: 'pat' }).lean()).map((r) => r.status)).toEqual(['PENDING']);
    expect(svc.issued.size).toBe(before);
    const converted = await convert('app_cur', referral.code, 'pat', { amount: 20, currency: 'EUR' });
    expect(rewardsOf(converted.root.conversionId)).toEqual([['REFERRER', 1, 'ann', 5, 'EUR']]);
  });

  it('reads a campaign stored before commissions as fixed amounts in USD, not held, not recurring, and pays it as before', async () => {
    const now = new Date();
    await campaignModel(svc.db).collection.insertOne({
      _id: 'cmp_old' as never,
      appId: 'app_old',
      name: 'old',
      status: 'ACTIVE',
      referrerReward: { amount: 7, fulfillmentType: 'DISCOUNT_CODE' },
      refereeReward: null,
      levels: [{ level: 2, amount: 3 }],
      attributionWindowDays: 30,
      maxRewardsPerReferrer: null,
      fraud: { flagThreshold: 50 },
      createdAt: now,
      updatedAt: now,
    });
    const read = await svc.campaigns.get('app_old', 'cmp_old');
    expect(read).toMatchObject({ currency: 'USD', holdDays: 0, recurringMonths: null, referrerReward: { amount: 7 } });
    const { campaign } = await svc.rpc.getCampaign({ appId: 'app_old', campaignId: 'cmp_old' });
    expect(campaign).toMatchObject({ currency: 'USD', holdDays: 0, referrerReward: { amount: 7 }, levels: [{ level: 2, amount: 3 }] });
    expect(campaign!.referrerReward!.percent).toBeUndefined();
    expect(campaign!.recurringMonths).toBeUndefined();
    expect((await svc.rpc.listCampaigns({ appId: 'app_old' })).campaigns.map((c) => c.currency)).toEqual(['USD']);

    const mid = await chain('app_old', 'cmp_old');
    const outcome = await convert('app_old', mid.code, 'buyer', { amount: 1000 });
    expect(rewardsOf(outcome.root.conversionId)).toEqual([
      ['REFERRER', 1, 'mid', 7, 'USD'],
      ['REFERRER', 2, 'top', 3, 'USD'],
    ]);
  });

  it('keeps the commission settings, checks them, and keeps the currency fixed', async () => {
    const campaign = await svc.campaigns.create('app_set', {
      name: 'settings',
      currency: 'JPY',
      holdDays: 30,
      recurringMonths: 12,
      referrerReward: { amount: 0, percent: 100, maxAmount: 0.01, fulfillmentType: 'MANUAL' },
    });
    expect(campaign).toMatchObject({ currency: 'JPY', holdDays: 30, recurringMonths: 12, referrerReward: { percent: 100, maxAmount: 0.01 } });
    const patched = await svc.campaigns.update('app_set', campaign._id, { currency: 'JPY', holdDays: 0, recurringMonths: null, referrerReward: { amount: 3, fulfillmentType: 'MANUAL' } });
    expect(patched).toMatchObject({ currency: 'JPY', holdDays: 0, recurringMonths: null, referrerReward: { amount: 3, percent: null, maxAmount: null } });
    expect(await refusal(svc.campaigns.update('app_set', campaign._id, { currency: 'EUR' }))).toMatchObject({
      code: Code.FailedPrecondition,
      reason: 'CURRENCY_MISMATCH',
      details: { currency: 'EUR', campaignCurrency: 'JPY' },
    });

    const invalid = async (change: Parameters<typeof svc.campaigns.update>[2]) => (await refusal(svc.campaigns.update('app_set', campaign._id, change))).code;
    const rule = (terms: object) => ({ fulfillmentType: 'MANUAL', amount: 0, ...terms });
    for (const change of [
      { referrerReward: rule({ amount: 5, percent: 10 }) },
      { referrerReward: rule({ percent: 0 }) },
      { referrerReward: rule({ percent: 100.5 }) },
      { referrerReward: rule({ percent: 10, maxAmount: 0 }) },
      { referrerReward: rule({ amount: 5, maxAmount: 10 }) },
      { refereeReward: rule({ percent: -1 }) },
      { levels: [{ level: 2, amount: 0, percent: 101 }] },
      { holdDays: 366 },
      { holdDays: 1.5 },
      { recurringMonths: 0 },
      { recurringMonths: 121 },
    ]) {
      expect([change, await invalid(change)]).toEqual([change, Code.InvalidArgument]);
    }
    await expect(svc.campaigns.create('app_set', { name: 'x', currency: 'ABC', referrerReward: rule({ amount: 1 }) })).rejects.toThrow(/currency/);
  });
});
