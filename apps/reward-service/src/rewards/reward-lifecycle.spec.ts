import type { Outbox } from '@ris/events';
import { claimReward } from '../codes/claim-reward';
import { rewardCodeModel } from '../codes/reward-code.model';
import { validateCode } from '../codes/validate-code';
import { redeemReward } from '../moves/redeem-reward';
import { rewardOnTestDatabase, type RewardOnTestDatabase } from '../testing/reward-on-test-database';
import { createReward, type CreateRewardInput } from './create-reward';
import { approveConversionRewards, cancelConversionRewards } from './review-conversion-rewards';
import { rewardOf, rewardStats } from './reward-reads';
import type { RewardStore } from './reward-store';

// The reward domain against the real development database (FerretDB),
// including the races it must decide.
describe('reward lifecycle', () => {
  let db: RewardOnTestDatabase['db'];
  let store: RewardStore;
  let outbox: Outbox;
  let n = 0;

  const input = (overrides: Partial<CreateRewardInput> = {}): CreateRewardInput => {
    n += 1;
    return {
      conversionId: `conv_${n}`,
      purchaseId: null,
      holdDays: 0,
      shareOfSale: false,
      side: 'REFERRER',
      level: 1,
      userId: 'alice',
      campaignId: 'cmp_1',
      referralId: 'ref_1',
      amount: 10,
      fulfillmentType: 'DISCOUNT_CODE',
      hold: false,
      maxRewardsPerUser: null,
      codeValidityDays: 90,
      ...overrides,
    };
  };

  beforeAll(async () => {
    ({ db, outbox, store } = await rewardOnTestDatabase('reward'));
  });

  afterAll(() => db.drop());

  // Events stored and not yet published (no relay runs here), by id: the same event stored twice is published once.
  const eventsFor = async (type: string, rewardId: string) =>
    new Set((await outbox.pending()).filter((e) => e.type === type && e.json.includes(rewardId)).map((e) => e.id)).size;

  it('creates a reward once per conversion, side and level, even concurrently', async () => {
    const request = input();
    const results = await Promise.all(Array.from({ length: 8 }, () => createReward(store, 'app_a', request)));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.reward?._id)).size).toBe(1);
    expect(await store.rewards.ofSale('app_a', request.conversionId, null)).toHaveLength(1);
    // The replays rewrote the events under the same ids: stored once.
    expect(await eventsFor('reward.created', results[0].reward!._id)).toBe(1);
  });

  it('holds PENDING when asked, and moves a conversion\'s rewards once', async () => {
    const held = await createReward(store, 'app_a', input({ hold: true, conversionId: 'conv_held' }));
    const referee = await createReward(store, 'app_a', input({ hold: true, conversionId: 'conv_held', side: 'REFEREE', userId: 'bob' }));
    expect(held.reward?.status).toBe('PENDING');
    const approvals = await Promise.all([1, 2, 3].map(() => approveConversionRewards(store, 'app_a', 'conv_held')));
    expect(approvals.flat().map((r) => r._id).sort()).toEqual([held.reward!._id, referee.reward!._id].sort());
    expect((await rewardOf(store, 'app_a', held.reward!._id)).status).toBe('APPROVED');
    expect(await cancelConversionRewards(store, 'app_a', 'conv_held')).toHaveLength(2);
    expect((await rewardOf(store, 'app_a', referee.reward!._id)).status).toBe('CANCELLED');
  });

  it('ends a held reward CANCELLED when an approval and a cancellation race (a rejection is final)', async () => {
    const { reward } = await createReward(store, 'app_a', input({ hold: true, conversionId: 'conv_race' }));
    const [approved, cancelled] = await Promise.all([
      approveConversionRewards(store, 'app_a', 'conv_race'),
      cancelConversionRewards(store, 'app_a', 'conv_race'),
    ]);
    // Whichever journaled first, the cancellation is not dropped: it cancels
    // the reward, after the approval when that got in first.
    expect(cancelled.map((r) => r._id)).toEqual([reward!._id]);
    expect(approved.length).toBeLessThanOrEqual(1);
    expect((await rewardOf(store, 'app_a', reward!._id)).status).toBe('CANCELLED');
  });

  it('caps referrer rewards per user and campaign, concurrently, and frees a cancelled one\'s place', async () => {
    const capped = () => input({ userId: 'capped', campaignId: 'cmp_cap', maxRewardsPerUser: 3, hold: true });
    const results = await Promise.all(Array.from({ length: 8 }, () => createReward(store, 'app_a', capped())));
    expect(results.filter((r) => r.created)).toHaveLength(3);
    expect(results.filter((r) => r.capped)).toHaveLength(5);
    const one = results.find((r) => r.created)!.reward!;
    await cancelConversionRewards(store, 'app_a', one.conversionId);
    expect((await createReward(store, 'app_a', capped())).created).toBe(true);
    expect((await createReward(store, 'app_a', capped())).capped).toBe(true);
    // Referee rewards are not capped.
    expect((await createReward(store, 'app_a', { ...capped(), side: 'REFEREE' })).created).toBe(true);
  });

  it('issues one code for concurrent claims and validates it until redeemed', async () => {
    const { reward } = await createReward(store, 'app_a', input());
    const claims = await Promise.all(Array.from({ length: 20 }, () => claimReward(store, 'app_a', reward!._id)));
    expect(new Set(claims.map((c) => c.discountCode)).size).toBe(1);
    expect(await rewardCodeModel(db).countDocuments({ appId: 'app_a', _id: reward!._id }).exec()).toBe(1);
    const code = claims[0].discountCode!;
    expect(await validateCode(store, 'app_a', code)).toMatchObject({ valid: true, reason: null });
    expect(await validateCode(store, 'app_b', code)).toEqual({ valid: false, code, reward: null, reason: 'NOT_FOUND' });
    expect(await validateCode(store, 'app_a', code, new Date(Date.now() + 91 * 86_400_000))).toMatchObject({ valid: false, reason: 'EXPIRED' });

    const redeems = await Promise.allSettled(Array.from({ length: 20 }, () => redeemReward(store, 'app_a', reward!._id, 'alice')));
    expect(redeems.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await validateCode(store, 'app_a', code)).toMatchObject({ valid: false, reason: 'REDEEMED' });
    // Claiming a PAID reward again still returns its code.
    expect((await claimReward(store, 'app_a', reward!._id)).discountCode).toBe(code);
  });

  it('answers valid: false for a cancelled reward\'s code', async () => {
    const { reward } = await createReward(store, 'app_a', input({ conversionId: 'conv_cancel_code' }));
    const { discountCode } = await claimReward(store, 'app_a', reward!._id);
    await cancelConversionRewards(store, 'app_a', 'conv_cancel_code');
    expect(await validateCode(store, 'app_a', discountCode!)).toMatchObject({ valid: false, reason: 'CANCELLED' });
    await expect(claimReward(store, 'app_a', reward!._id)).rejects.toMatchObject({ message: expect.stringContaining('CANCELLED') });
  });

  it('keeps the totals by status, level and side', async () => {
    const campaign = 'cmp_totals';
    const a = await createReward(store, 'app_a', input({ campaignId: campaign, userId: 'u', level: 1, amount: 10 }));
    await createReward(store, 'app_a', input({ campaignId: campaign, userId: 'u', level: 2, amount: 4, hold: true }));
    await createReward(store, 'app_a', input({ campaignId: campaign, userId: 'v', side: 'REFEREE', amount: 3 }));
    await redeemReward(store, 'app_a', a.reward!._id, 'u');
    const all = await rewardStats(store, 'app_a', { campaignId: campaign });
    expect(all.total).toEqual({ pending: 4, approved: 3, paid: 10, cancelled: 0, count: 3 });
    const u = await rewardStats(store, 'app_a', { campaignId: campaign, userId: 'u' });
    expect(u.levels).toEqual([
      { level: 1, amounts: { pending: 0, approved: 0, paid: 10, cancelled: 0, count: 1 } },
      { level: 2, amounts: { pending: 4, approved: 0, paid: 0, cancelled: 0, count: 1 } },
    ]);
    expect((await rewardStats(store, 'app_a', { userId: 'v' })).referee).toMatchObject({ approved: 3, count: 1 });
    expect(await eventsFor('reward.redeemed', a.reward!._id)).toBe(1);
  });
});
