import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { ConnectError, type ServiceImpl } from '@connectrpc/connect';
import { RewardSchema, RewardSide, RewardStatus, type CreateRewardRequest, type Reward, type RewardService } from '@ris/contracts';
import { errorReason, toConnectError } from '@ris/rpc';
import { conversionModel } from '../conversions/conversion.model';
import { NO_CONTEXT, serviceOnTestDatabase } from '../testing/service-on-test-database';
import { purchaseModel } from './purchase.model';

// Recurring purchases against the real database (the reward service stood
// in for, keyed as it keys rewards: conversion, purchase, side, level):
// what each purchase earns and how it is counted, a replay that earns
// nothing more, the refusals that store nothing, the review the rewards
// follow, and the recovery of a purchase whose rewards a request did not
// finish.
describe('recurring purchases', () => {
  let svc: Awaited<ReturnType<typeof serviceOnTestDatabase>>;
  /** What the stand-in reward service was asked (each CreateReward), and what it holds. */
  const asked: CreateRewardRequest[] = [];
  const made = new Map<string, Reward>();
  /** Set by a test: runs inside CreateReward of a purchase, before the reward exists (a review landing meanwhile), or fails it. */
  let beforePurchaseReward: (() => Promise<void>) | null = null;

  const moveAll = (conversionId: string, from: RewardStatus[], to: RewardStatus) => {
    const moved = [...made.values()].filter((r) => r.conversionId === conversionId && from.includes(r.status));
    for (const reward of moved) reward.status = to;
    return { rewards: moved };
  };
  const rewards: Partial<ServiceImpl<typeof RewardService>> = {
    createReward: async (req) => {
      asked.push(req);
      if (req.purchaseId && beforePurchaseReward) await beforePurchaseReward();
      const id = `rwd_${req.conversionId}_${req.purchaseId ?? 'sale'}_${req.side}_${req.level}`;
      const created = !made.has(id);
      if (created) {
        const { userId, campaignId, referralId, conversionId, purchaseId, side, level, amount, currency, fulfillmentType } = req;
        const status = req.hold || req.holdDays > 0 ? RewardStatus.PENDING : RewardStatus.APPROVED;
        made.set(id, create(RewardSchema, { id, userId, campaignId, referralId, conversionId, purchaseId, side, level, amount, currency, fulfillmentType, status }));
      }
      return { created, capped: false, reward: made.get(id) };
    },
    approveConversionRewards: async (req) => moveAll(req.conversionId, [RewardStatus.PENDING], RewardStatus.APPROVED),
    cancelConversionRewards: async (req) => moveAll(req.conversionId, [RewardStatus.PENDING, RewardStatus.APPROVED], RewardStatus.CANCELLED),
    listConversionRewards: async (req) => ({ rewards: [...made.values()].filter((r) => r.conversionId === req.conversionId && r.purchaseId === req.purchaseId) }),
  };

  beforeAll(async () => {
    // Every conversion whose referee is "sly…" is flagged for review.
    svc = await serviceOnTestDatabase(
      'purchases',
      {
        scoreConversion: async (req) =>
          req.refereeId.startsWith('sly')
            ? { assessment: { riskScore: 90, reasons: ['SELF_REFERRAL'], flagged: true, warning: 'Same person' } }
            : { assessment: { riskScore: 0, reasons: [], flagged: false } },
      },
      rewards,
    );
  });

  afterAll(() => svc.db.drop());

  afterEach(() => {
    beforePurchaseReward = null;
  });

  /** A recurring campaign paying 10 % capped at 15 to the referrer, 5 % to the referee and 2 to level 2; top ← mid ← the buyer. */
  async function recurringChain(appId: string, fields: { recurringMonths?: number | null; holdDays?: number; buyer?: string } = {}) {
    const campaign = await svc.campaigns.create(appId, {
      name: 'subscriptions',
      currency: 'EUR',
      referrerReward: { amount: 0, percent: 10, maxAmount: 15, fulfillmentType: 'DISCOUNT_CODE' },
      refereeReward: { amount: 0, percent: 5, fulfillmentType: 'COUPON_CODE' },
      levels: [{ level: 2, amount: 2 }],
      maxRewardsPerReferrer: 1,
      recurringMonths: fields.recurringMonths === undefined ? 12 : fields.recurringMonths,
      holdDays: fields.holdDays ?? 0,
    });
    const convert = (code: string, refereeId: string) =>
      svc.recorder.record(appId, { referralCode: code, refereeId, amount: 100, currency: null, metadata: null, context: NO_CONTEXT, operationKey: '' });
    const top = (await svc.referrals.create(appId, { campaignId: campaign._id, referrerId: 'top' })).referral;
    const mid = (await svc.referrals.create(appId, { campaignId: campaign._id, referrerId: 'mid' })).referral;
    await convert(top.code, 'mid');
    const conversion = await convert(mid.code, fields.buyer ?? 'buyer');
    return { campaign, top, mid, conversionId: conversion.root.conversionId };
  }

  const purchase = (appId: string, conversionId: string, amount: number, more: { externalId?: string; operationKey?: string; currency?: string; occurredAt?: Date } = {}) =>
    svc.purchases.record(appId, {
      conversionId,
      amount,
      currency: more.currency ?? null,
      externalId: more.externalId ?? null,
      occurredAt: more.occurredAt ?? null,
      operationKey: more.operationKey ?? '',
    });

  /** The refusal as the gateway gets it: its public code and details. */
  async function refusal(work: Promise<unknown>) {
    const err: unknown = await work.then(
      () => null,
      (e: unknown) => toConnectError(e),
    );
    if (!(err instanceof ConnectError)) throw new Error(`expected a refusal, got ${String(err)}`);
    return errorReason(err);
  }

  const earned = (outcome: { rewards: Array<{ side: string; level: number; amount: number; status: string }> }) =>
    outcome.rewards.map((r) => [r.side, r.level, r.amount, r.status]).sort();

  it('earns every rule again on each purchase, capped, uncapped by maxRewardsPerReferrer, and counts it where the conversion counts', async () => {
    const { campaign, mid, top, conversionId } = await recurringChain('app_p');
    const before = await svc.stats.read('app_p', campaign._id);

    const first = await purchase('app_p', conversionId, 80, { currency: 'EUR' });
    expect(first.created).toBe(true);
    expect(first.purchase).toMatchObject({ conversionId, campaignId: campaign._id, refereeId: 'buyer', amount: 80, currency: 'EUR', externalId: null, status: 'ACTIVE', reversedAmount: 0 });
    expect(first.purchase.rewardsIssuedAt).toBeInstanceOf(Date);
    expect(earned(first)).toEqual([
      ['REFEREE', 1, 4, 'APPROVED'], // 5 % of 80
      ['REFERRER', 1, 8, 'APPROVED'], // 10 % of 80
      ['REFERRER', 2, 2, 'APPROVED'], // the fixed level, per purchase
    ]);
    const second = await purchase('app_p', conversionId, 400);
    expect(earned(second)).toEqual([
      ['REFEREE', 1, 20, 'APPROVED'],
      ['REFERRER', 1, 15, 'APPROVED'], // 40, capped at 15
      ['REFERRER', 2, 2, 'APPROVED'],
    ]);

    // Asked of the reward service under the purchase, with the campaign's holding period and the kind of rule; never capped.
    const ofFirst = asked.filter((r) => r.purchaseId === first.purchase._id);
    expect(ofFirst.map((r) => [RewardSide[r.side], r.level, r.shareOfSale, r.holdDays, r.hold, r.maxRewardsPerUser]).sort()).toEqual([
      ['REFEREE', 1, true, 0, false, undefined],
      ['REFERRER', 1, true, 0, false, undefined],
      ['REFERRER', 2, false, 0, false, undefined],
    ]);
    // The conversion's own referrer reward is capped (maxRewardsPerReferrer 1), and says what its rule is too.
    expect(asked.find((r) => r.conversionId === conversionId && !r.purchaseId && r.level === 1 && r.side === RewardSide.REFERRER)).toMatchObject({
      maxRewardsPerUser: 1,
      shareOfSale: true,
      holdDays: 0,
    });

    // The campaign's reward value, the records, the referrals and the people: each purchase's rewards, once.
    expect((await svc.stats.read('app_p', campaign._id))!.totalRewardValue).toBe(before!.totalRewardValue + 14 + 37);
    const records = await svc.stored.conversions.recordsOf('app_p', conversionId);
    expect(records.map((r) => [r.level, r.rewardAmount, r.refereeRewardAmount])).toEqual([
      [1, 10 + 8 + 15, 5 + 4 + 20],
      [2, 2 + 2 + 2, 0],
    ]);
    expect((await svc.stored.counters.findById('app_p', mid._id))?.rewardAmount).toBe(10 + 8 + 15);
    const people = await svc.participants.ofUsers('app_p', ['buyer', 'mid', 'top']);
    expect(Object.fromEntries(people.map((p) => [p.userId, p.rewardValue]))).toEqual({ buyer: 29, mid: 33 + 5, top: 10 + 6 });
    expect((await svc.stored.counters.findById('app_p', top._id))?.rewardAmount).toBe(10 + 6);

    // Listed newest payment first, paged.
    const page = await svc.purchaseList.list('app_p', conversionId, { page: 1, limit: 1 });
    expect([page.totalItems, page.items.map((p) => p._id)]).toEqual([2, [second.purchase._id]]);
  });

  it('answers the same externalId, or a retry of the operation, with the first purchase and its rewards, earning nothing more', async () => {
    const { campaign, conversionId } = await recurringChain('app_replay');
    const first = await purchase('app_replay', conversionId, 50, { externalId: 'inv-1', operationKey: 'op-1' });
    const value = (await svc.stats.read('app_replay', campaign._id))!.totalRewardValue;

    // Another key, another amount: the same invoice, answered as it was recorded.
    const replay = await purchase('app_replay', conversionId, 999, { externalId: 'inv-1', operationKey: 'op-2' });
    expect(replay.created).toBe(false);
    expect(replay.purchase).toEqual(first.purchase);
    expect(earned(replay)).toEqual(earned(first));
    const retried = await purchase('app_replay', conversionId, 10, { operationKey: 'op-3' });
    const retriedAgain = await purchase('app_replay', conversionId, 10, { operationKey: 'op-3' });
    expect([retried.created, retriedAgain.created, retriedAgain.purchase._id]).toEqual([true, false, retried.purchase._id]);
    expect(earned(retriedAgain)).toEqual(earned(retried));

    // A replay is the same payment even after the campaign stopped recurring.
    await svc.campaigns.update('app_replay', campaign._id, { recurringMonths: null });
    expect((await purchase('app_replay', conversionId, 50, { externalId: 'inv-1' })).purchase._id).toBe(first.purchase._id);

    expect((await svc.stats.read('app_replay', campaign._id))!.totalRewardValue).toBe(value + 1 + 0.5 + 2);
    expect(await purchaseModel(svc.db).countDocuments({ appId: 'app_replay' })).toBe(2);
  });

  it('refuses, storing nothing, a purchase of an unknown, unconverted, rejected or non-recurring conversion, in another currency, or at the wrong time', async () => {
    const { campaign, conversionId } = await recurringChain('app_no');
    const upline = (await svc.stored.conversions.recordsOf('app_no', conversionId)).find((r) => r.level === 2)!;
    expect(await refusal(purchase('app_no', 'conv_nope', 10))).toMatchObject({ reason: 'NOT_FOUND' });
    expect(await refusal(purchase('app_no', upline._id, 10))).toMatchObject({ reason: 'NOT_FOUND' });
    expect(await refusal(purchase('app_other', conversionId, 10))).toMatchObject({ reason: 'NOT_FOUND' });

    // A referee known to a referral, not converted: their funnel record.
    await svc.referrals.create('app_no', { campaignId: campaign._id, referrerId: 'newbie', refereeId: 'later' });
    const funnel = await svc.stored.conversions.refereeRecord('app_no', campaign._id, 'later');
    expect(await refusal(purchase('app_no', funnel!._id, 10))).toEqual({ reason: 'NOT_CONVERTED', details: { conversionId: funnel!._id, status: 'PENDING' } });

    expect(await refusal(purchase('app_no', conversionId, 10, { currency: 'USD' }))).toEqual({
      reason: 'CURRENCY_MISMATCH',
      details: { campaignId: campaign._id, currency: 'USD', campaignCurrency: 'EUR' },
    });
    const convertedAt = (await svc.stored.conversions.findById('app_no', conversionId))!.convertedAt!;
    expect(await refusal(purchase('app_no', conversionId, 10, { occurredAt: new Date(convertedAt.getTime() - 1) }))).toMatchObject({ reason: 'OCCURRED_AT_INVALID' });
    expect(await refusal(purchase('app_no', conversionId, 10, { occurredAt: new Date(Date.now() + 3_600_000) }))).toMatchObject({ reason: 'OCCURRED_AT_INVALID' });

    // A year and a day ago, the window (12 months) is over.
    const longAgo = new Date(Date.now() - 367 * 86_400_000);
    await conversionModel(svc.db).updateMany({ appId: 'app_no', conversionId }, { $set: { convertedAt: longAgo } });
    expect(await refusal(purchase('app_no', conversionId, 10))).toMatchObject({ reason: 'OUTSIDE_RECURRING_WINDOW', details: { conversionId, recurringMonths: 12 } });
    // Still inside it when it happened: judged by occurredAt.
    expect((await purchase('app_no', conversionId, 10, { occurredAt: new Date(longAgo.getTime() + 86_400_000) })).created).toBe(true);

    await svc.campaigns.update('app_no', campaign._id, { recurringMonths: null });
    expect(await refusal(purchase('app_no', conversionId, 10))).toEqual({ reason: 'NOT_RECURRING', details: { campaignId: campaign._id, conversionId } });
    expect(await purchaseModel(svc.db).countDocuments({ appId: 'app_no' })).toBe(1);
  });

  it("holds a flagged conversion's purchase rewards for its review, and takes them out of every figure when it is rejected", async () => {
    const { campaign, mid, conversionId } = await recurringChain('app_flag', { buyer: 'sly-buyer' });
    const held = await purchase('app_flag', conversionId, 100);
    expect(earned(held)).toEqual([
      ['REFEREE', 1, 5, 'PENDING'],
      ['REFERRER', 1, 10, 'PENDING'],
      ['REFERRER', 2, 2, 'PENDING'],
    ]);
    expect(asked.filter((r) => r.purchaseId === held.purchase._id).every((r) => r.hold)).toBe(true);

    const flag = (await svc.flags.list('app_flag', { page: 1, limit: 10 }, { status: 'OPEN' })).items.find((f) => f.conversionId === conversionId)!;
    await svc.flags.resolve('app_flag', flag._id, 'REJECT', 'same person');
    expect([...made.values()].filter((r) => r.purchaseId === held.purchase._id).map((r) => RewardStatus[r.status])).toEqual(['CANCELLED', 'CANCELLED', 'CANCELLED']);
    // Only mid's own conversion (through top's code, clean) still counts: its 10 and top has nothing at level 2 of it.
    expect((await svc.stats.read('app_flag', campaign._id))!.totalRewardValue).toBe(10 + 5);
    expect((await svc.stored.counters.findById('app_flag', mid._id))?.rewardAmount).toBe(0);
    expect((await svc.participants.ofUsers('app_flag', ['sly-buyer']))[0].rewardValue).toBe(0);
    expect(await refusal(purchase('app_flag', conversionId, 100))).toMatchObject({ reason: 'NOT_CONVERTED', details: { status: 'REJECTED' } });
  });

  it('releases the rewards of a purchase made while its conversion was approved meanwhile', async () => {
    const { conversionId } = await recurringChain('app_race', { buyer: 'sly-race' });
    const flag = (await svc.flags.list('app_race', { page: 1, limit: 10 }, { status: 'OPEN' })).items.find((f) => f.conversionId === conversionId)!;
    // The flag is approved while the purchase's rewards are asked for: the approval moves none of them (they do not exist yet).
    beforePurchaseReward = async () => {
      beforePurchaseReward = null;
      await svc.flags.resolve('app_race', flag._id, 'APPROVE', null);
    };
    const bought = await purchase('app_race', conversionId, 100);
    expect([...made.values()].filter((r) => r.purchaseId === bought.purchase._id).map((r) => RewardStatus[r.status])).toEqual(['APPROVED', 'APPROVED', 'APPROVED']);
  });

  it('finishes, in the recovery pass, a purchase whose rewards the request could not issue, counting them once', async () => {
    const { campaign, conversionId } = await recurringChain('app_rec');
    const value = (await svc.stats.read('app_rec', campaign._id))!.totalRewardValue;
    beforePurchaseReward = async () => {
      throw new ConnectError('reward service down');
    };
    await expect(purchase('app_rec', conversionId, 60, { externalId: 'inv-9' })).rejects.toThrow('reward service down');
    beforePurchaseReward = null;
    const [stored] = await purchaseModel(svc.db).find({ appId: 'app_rec' }).lean();
    expect(stored).toMatchObject({ rewardsIssuedAt: null, rewardsPending: true });

    // Recent: a request may still be at it. Older than a few seconds: the pass finishes it, once however often it runs.
    await svc.recovery.runOnce();
    expect((await svc.stored.purchases.findById('app_rec', stored._id))!.rewardsPending).toBe(true);
    await purchaseModel(svc.db).updateOne({ _id: stored._id }, { $set: { createdAt: new Date(Date.now() - 60_000) } });
    await svc.recovery.runOnce();
    await svc.recovery.runOnce();
    expect((await svc.stored.purchases.findById('app_rec', stored._id))!.rewardsPending).toBe(false);
    expect((await svc.stats.read('app_rec', campaign._id))!.totalRewardValue).toBe(value + 6 + 3 + 2);
    // The replay answers it with its rewards.
    const replay = await purchase('app_rec', conversionId, 60, { externalId: 'inv-9' });
    expect([replay.created, earned(replay)]).toEqual([false, [['REFEREE', 1, 3, 'APPROVED'], ['REFERRER', 1, 6, 'APPROVED'], ['REFERRER', 2, 2, 'APPROVED']]]);
  });

  it('answers through the RPC edge, and refuses an amount that is not more than 0', async () => {
    const { conversionId } = await recurringChain('app_rpc');
    const res = await svc.rpc.recordPurchase({ appId: 'app_rpc', conversionId, amount: 30, externalId: 'inv-r', occurredAt: timestampFromDate(new Date()) });
    expect(res.created).toBe(true);
    expect(res.purchase).toMatchObject({ conversionId, amount: 30, currency: 'EUR', externalId: 'inv-r', status: 'ACTIVE', reversedAmount: 0 });
    expect(res.rewards.map((r) => r.amount).sort()).toEqual([1.5, 2, 3]);
    const listed = await svc.rpc.listPurchases({ appId: 'app_rpc', conversionId, page: { page: 1, limit: 10 } });
    expect([listed.page?.totalItems, listed.purchases.map((p) => p.id)]).toEqual([1, [res.purchase!.id]]);
    expect(await refusal(svc.rpc.recordPurchase({ appId: 'app_rpc', conversionId, amount: 0 }))).toMatchObject({ reason: 'VALIDATION_ERROR' });
  });
});
