import { createLogger } from '@ris/logging';
import { finishOpenMoves } from '../moves/move-reward';
import { redeemReward } from '../moves/redeem-reward';
import { createReward, type CreateRewardInput } from '../rewards/create-reward';
import { rewardModel } from '../rewards/reward.model';
import { rewardStats } from '../rewards/reward-reads';
import type { RewardStore } from '../rewards/reward-store';
import { cancelConversionRewards } from '../rewards/review-conversion-rewards';
import { rewardOnTestDatabase, type RewardOnTestDatabase } from '../testing/reward-on-test-database';
import { rewardTotalsModel } from './reward-totals.model';
import { rebuildTotals } from './totals-rebuild';

// The totals rebuild against the real database: silent on totals the
// service kept, and it finds and closes what a crash left short.
describe('reward totals rebuild', () => {
  const logger = createLogger('reward-rebuild-test', 'silent');
  let db: RewardOnTestDatabase['db'];
  let store: RewardStore;
  let n = 0;
  const appId = 'app_rebuild';
  const campaignId = 'cmp_rebuild';

  const request = (overrides: Partial<CreateRewardInput> = {}): CreateRewardInput => {
    n += 1;
    return {
      ...{ conversionId: `conv_${n}`, purchaseId: null, holdDays: 0, shareOfSale: false, side: 'REFERRER', level: 1, userId: 'ann', campaignId, referralId: `ref_${n}` },
      ...{ amount: 10, fulfillmentType: 'MANUAL', hold: false, maxRewardsPerUser: null, codeValidityDays: 90 },
      ...overrides,
    };
  };

  beforeAll(async () => {
    ({ db, store } = await rewardOnTestDatabase('reward_rebuild'));
    const paid = await createReward(store, appId, request());
    await redeemReward(store, appId, paid.reward!._id, 'ann');
    await createReward(store, appId, request({ level: 2, amount: 4, hold: true }));
    const cancelled = await createReward(store, appId, request({ side: 'REFEREE', userId: 'bob', amount: 3 }));
    await cancelConversionRewards(store, appId, cancelled.reward!.conversionId);
    await createReward(store, 'app_other', request({ campaignId: 'cmp_other' }));
  });

  afterAll(() => db.drop());

  it('finds no drift in totals the service kept', async () => {
    const report = await rebuildTotals(store, logger, { appId, fix: false, settleMs: 0 });
    expect(report).toEqual({ rewards: 3, documents: 3, drifted: [], unsettled: 0 });
  });

  it('reports what a crash left short, closes it with --fix, and then finds nothing', async () => {
    const before = await rewardStats(store, appId, { campaignId });
    // What a process dying before a move's increments leaves: the campaign short of a paid reward, bob's document never written.
    await rewardTotalsModel(db).updateOne({ _id: `${campaignId}:` }, { $inc: { 'total.paid': -10 } }).exec();
    await rewardTotalsModel(db).deleteOne({ _id: `${campaignId}:bob` }).exec();

    const found = await rebuildTotals(store, logger, { appId, fix: false, settleMs: 10 });
    expect(found.drifted).toEqual(
      expect.arrayContaining([
        { appId, docId: `${campaignId}:`, field: 'total.paid', stored: 0, expected: 10, fixed: false },
        { appId, docId: `${campaignId}:bob`, field: 'referee.cancelled', stored: 0, expected: 3, fixed: false },
      ]),
    );
    expect(found.drifted.every((d) => d.appId === appId)).toBe(true);

    const fixed = await rebuildTotals(store, logger, { appId, fix: true, settleMs: 10 });
    expect(fixed.drifted.length).toBe(found.drifted.length);
    expect(fixed.drifted.every((d) => d.fixed)).toBe(true);
    expect(await rewardStats(store, appId, { campaignId })).toEqual(before);
    expect((await rewardStats(store, appId, { campaignId, userId: 'bob' })).referee).toEqual({ pending: 0, approved: 0, paid: 0, cancelled: 3, count: 1 });
    expect((await rebuildTotals(store, logger, { fix: false, settleMs: 0 })).drifted).toEqual([]);
  });

  it('leaves alone the totals of a reward whose move is still open (finishing it will count it)', async () => {
    const { reward } = await createReward(store, appId, request({ userId: 'cat', hold: true }));
    // A move whose status is written and whose process died before its totals.
    await store.moves.begin(appId, reward!._id, 'PENDING', 'APPROVED', { approvedAt: new Date() });
    await rewardModel(db).updateOne({ _id: reward!._id, appId }, { $set: { status: 'APPROVED' } }).exec();
    const report = await rebuildTotals(store, logger, { appId, fix: true, settleMs: 10 });
    expect(report.drifted).toEqual([]);
    expect(report.unsettled).toBe(2); // the campaign's document and cat's
    await finishOpenMoves(store, 0, (err) => {
      throw err;
    });
    expect((await rewardStats(store, appId, { campaignId, userId: 'cat' })).total).toEqual({ pending: 0, approved: 10, paid: 0, cancelled: 0, count: 1 });
    expect((await rebuildTotals(store, logger, { appId, fix: false, settleMs: 0 })).drifted).toEqual([]);
  });
});
