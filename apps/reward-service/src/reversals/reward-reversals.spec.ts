import { pino } from 'pino';
import { claimReward } from '../codes/claim-reward';
import { validateCode } from '../codes/validate-code';
import { HoldRelease } from '../holds/hold-release';
import { redeemReward } from '../moves/redeem-reward';
import { createReward, type CreateRewardInput } from '../rewards/create-reward';
import { approveConversionRewards } from '../rewards/review-conversion-rewards';
import { rewardOf, rewardStats } from '../rewards/reward-reads';
import type { RewardStore } from '../rewards/reward-store';
import { rewardOnTestDatabase, type RewardOnTestDatabase } from '../testing/reward-on-test-database';
import { rebuildTotals } from '../totals/totals-rebuild';
import { listClawbacks, clawbackTotals } from './clawbacks';
import { finishOpenReversals, reverseRewards, type ReverseRewardsInput } from './reverse-rewards';

const DAY_MS = 86_400_000;
const logger = pino({ level: 'silent' });

// Holding periods and reversals against the real development database
// (FerretDB), the races they must decide included.
describe('reward holds and reversals', () => {
  let db: RewardOnTestDatabase['db'];
  let store: RewardStore;
  let n = 0;
  const appId = 'app_rev';

  const input = (overrides: Partial<CreateRewardInput> = {}): CreateRewardInput => {
    n += 1;
    return {
      conversionId: `conv_${n}`,
      purchaseId: null,
      side: 'REFERRER',
      level: 1,
      userId: 'alice',
      campaignId: 'cmp_rev',
      referralId: `ref_${n}`,
      amount: 10,
      currency: 'USD',
      fulfillmentType: 'DISCOUNT_CODE',
      hold: false,
      holdDays: 0,
      shareOfSale: true,
      maxRewardsPerUser: null,
      codeValidityDays: 90,
      ...overrides,
    };
  };
  const create = async (overrides: Partial<CreateRewardInput> = {}) => (await createReward(store, appId, input(overrides))).reward!;
  const reversal = (reward: { conversionId: string }, overrides: Partial<ReverseRewardsInput> = {}): ReverseRewardsInput => ({
    conversionId: reward.conversionId,
    purchaseId: null,
    reversalId: `rev_${(n += 1)}`,
    reason: 'REFUND',
    note: null,
    full: true,
    remainingShare: 0,
    ...overrides,
  });

  beforeAll(async () => {
    ({ db, store } = await rewardOnTestDatabase('reward_rev'));
  });

  afterAll(() => db.drop());

  it('holds a reward for its holding period, past a review, and releases it once the clock passes', async () => {
    const held = await create({ holdDays: 30, hold: true });
    expect(held.status).toBe('PENDING');
    expect(held.availableAt!.getTime() - Date.now()).toBeGreaterThan(29 * DAY_MS);
    // The review approves: still inside the hold.
    expect(await approveConversionRewards(store, appId, held.conversionId)).toEqual([]);
    const release = (offsetMs: number) => new HoldRelease(store, logger, { intervalMs: 60_000 }, () => new Date(Date.now() + offsetMs)).runOnce();
    await release(29 * DAY_MS);
    expect((await rewardOf(store, appId, held._id)).status).toBe('PENDING');
    // Two passes at once (two replicas): approved once.
    await Promise.all([release(31 * DAY_MS), release(31 * DAY_MS)]);
    const released = await rewardOf(store, appId, held._id);
    expect(released.status).toBe('APPROVED');
    expect((await store.moves.history(appId, held._id)).map((m) => `${m.from}>${m.to}`)).toEqual(['NEW>PENDING', 'PENDING>APPROVED']);
  });

  it('keeps a reward whose review is open held after its holding period', async () => {
    const flagged = await create({ holdDays: 1, hold: true });
    await new HoldRelease(store, logger, { intervalMs: 60_000 }, () => new Date(Date.now() + 2 * DAY_MS)).runOnce();
    expect((await rewardOf(store, appId, flagged._id)).status).toBe('PENDING');
  });

  it('cancels a held reward on a full reversal and says why its code is invalid', async () => {
    const held = await create({ holdDays: 30 });
    const [result] = await reverseRewards(store, appId, reversal(held));
    expect([result.reversal.effect, result.reward.status, result.reward.reversalReason, result.reward.reversedAmount]).toEqual(['CANCELLED', 'CANCELLED', 'REFUND', 10]);
    const claimed = await create();
    await claimReward(store, appId, claimed._id);
    await reverseRewards(store, appId, reversal(claimed, { reason: 'CHARGEBACK' }));
    const code = (await rewardOf(store, appId, claimed._id)).discountCode!;
    expect(await validateCode(store, appId, code)).toMatchObject({ valid: false, reason: 'REVERSED' });
  });

  it('shrinks a share-of-sale reward in proportion and never gives value back', async () => {
    const reward = await create();
    const first = await reverseRewards(store, appId, reversal(reward, { full: false, remainingShare: 0.7 }));
    expect([first[0].reversal.effect, first[0].reward.amount, first[0].reward.reversedAmount]).toEqual(['REDUCED', 7, 3]);
    const second = await reverseRewards(store, appId, reversal(reward, { full: false, remainingShare: 0.5 }));
    expect([second[0].reversal.effect, second[0].reward.amount]).toEqual(['REDUCED', 5]);
    // A fixed reward is reversed only in full.
    const fixed = await create({ shareOfSale: false });
    const partial = await reverseRewards(store, appId, reversal(fixed, { full: false, remainingShare: 0.5 }));
    expect([partial[0].reversal.effect, partial[0].reward.amount]).toEqual(['UNCHANGED', 10]);
  });

  it('claws back a redeemed reward instead of cancelling it, and lists what its owner owes', async () => {
    const reward = await create({ userId: 'bob' });
    await claimReward(store, appId, reward._id);
    await redeemReward(store, appId, reward._id, 'bob');
    const partial = await reverseRewards(store, appId, reversal(reward, { full: false, remainingShare: 0.6 }));
    expect([partial[0].reversal.effect, partial[0].reversal.clawback, partial[0].reward.status, partial[0].reward.amount]).toEqual(['CLAWBACK', 4, 'PAID', 10]);
    await reverseRewards(store, appId, reversal(reward));
    const owed = await listClawbacks(store, appId, 'bob', { limit: 10, page: 1 });
    expect(owed.items.map((c) => c.clawback).sort()).toEqual([4, 6]);
    expect([...(await clawbackTotals(store, appId, 'bob')).entries()]).toEqual([['USD', 10]]);
  });

  it('applies a reversal once however often it is asked', async () => {
    const reward = await create();
    const once = reversal(reward, { full: false, remainingShare: 0.5 });
    const results = await Promise.all(Array.from({ length: 6 }, () => reverseRewards(store, appId, once)));
    expect(new Set(results.map((r) => r[0].reversal.effect))).toEqual(new Set(['REDUCED']));
    expect((await rewardOf(store, appId, reward._id)).amount).toBe(5);
    expect((await rewardOf(store, appId, reward._id)).reversalIds).toEqual([once.reversalId]);
  });

  it('decides a reversal racing a claim and a redemption: each reward ends in one consistent state', async () => {
    const rewards = await Promise.all(Array.from({ length: 10 }, () => create({ userId: 'race' })));
    await Promise.all(
      rewards.flatMap((reward) => [
        reverseRewards(store, appId, reversal(reward)),
        claimReward(store, appId, reward._id)
          .then(() => redeemReward(store, appId, reward._id, 'race'))
          .catch(() => null),
      ]),
    );
    for (const { _id } of rewards) {
      const reward = await rewardOf(store, appId, _id);
      const history = (await store.moves.history(appId, _id)).map((m) => m.to);
      if (reward.status === 'PAID') {
        // Redeemed first: owed back in full.
        expect([history, reward.clawedBack]).toEqual([['APPROVED', 'PAID'], 10]);
      } else {
        expect([reward.status, history, reward.cancelledByReversal !== null]).toEqual(['CANCELLED', ['APPROVED', 'CANCELLED'], true]);
        if (reward.discountCode) expect((await validateCode(store, appId, reward.discountCode)).valid).toBe(false);
      }
    }
    // The totals agree with the rewards.
    const report = await rebuildTotals(store, logger, { appId, fix: false, settleMs: 0 });
    expect(report.drifted).toEqual([]);
  });

  it('finishes a reversal whose process died after its intent', async () => {
    const reward = await create();
    await store.reversals.begin(appId, {
      _id: `rev_dead:${reward._id}`,
      reversalId: 'rev_dead',
      rewardId: reward._id,
      userId: reward.userId,
      campaignId: reward.campaignId,
      conversionId: reward.conversionId,
      purchaseId: null,
      side: reward.side,
      level: reward.level,
      currency: 'USD',
      reason: 'REFUND',
      note: null,
      keep: 4,
      effect: null,
      from: 0,
      to: 0,
      clawback: 0,
      createdAt: new Date(Date.now() - 60_000),
      done: false,
    });
    expect(await finishOpenReversals(store, 30_000, (err) => { throw err; })).toBeGreaterThanOrEqual(1);
    expect((await rewardOf(store, appId, reward._id)).amount).toBe(4);
    const stats = await rewardStats(store, appId, { campaignId: reward.campaignId });
    expect(stats.total.cancelled).toBeGreaterThan(0);
    expect((await rebuildTotals(store, logger, { appId, fix: false, settleMs: 0 })).drifted).toEqual([]);
  });
});
