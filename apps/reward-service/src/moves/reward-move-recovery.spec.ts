import type { Outbox } from '@ris/events';
import { createReward, type CreateRewardInput } from '../rewards/create-reward';
import { cancelConversionRewards } from '../rewards/review-conversion-rewards';
import { rewardModel, type RewardDoc, type RewardStatusName } from '../rewards/reward.model';
import { rewardOf, rewardStats } from '../rewards/reward-reads';
import type { RewardStore } from '../rewards/reward-store';
import { rewardSlotModel } from '../slots/reward-slot.model';
import { rewardOnTestDatabase, type RewardOnTestDatabase } from '../testing/reward-on-test-database';
import { totalsIncrements } from '../totals/reward-totals';
import { beginCreation, finishMove, finishOpenMoves } from './move-reward';
import { redeemReward } from './redeem-reward';
import { rewardMoveModel } from './reward-move.model';

// A process can die between any two writes of a reward's move (no
// transactions). Each case stops a move where a crash would, by writing
// only its first steps, then runs the recovery pass: the reward must end
// as the finished move would have left it, its totals counted once and
// its event stored.
describe('reward moves interrupted by a crash', () => {
  let db: RewardOnTestDatabase['db'];
  let store: RewardStore;
  let outbox: Outbox;
  let n = 0;
  const appId = 'app_crash';

  const request = (overrides: Partial<CreateRewardInput> = {}): CreateRewardInput => {
    n += 1;
    return {
      ...{ conversionId: `conv_${n}`, purchaseId: null, holdDays: 0, shareOfSale: false, side: 'REFERRER', level: 1, userId: `user_${n}`, campaignId: `cmp_${n}`, referralId: `ref_${n}` },
      ...{ amount: 10, fulfillmentType: 'DISCOUNT_CODE', hold: false, maxRewardsPerUser: null, codeValidityDays: 90 },
      ...overrides,
    };
  };
  const create = async (overrides: Partial<CreateRewardInput> = {}): Promise<RewardDoc> => (await createReward(store, appId, request(overrides))).reward!;
  // Recovery as main.ts runs it, but a failing move fails the test.
  const finishOpen = (olderThanMs: number) =>
    finishOpenMoves(store, olderThanMs, (err) => {
      throw err;
    });
  // Events stored and not yet published (no relay runs here), by id: the same event stored twice is published once.
  const eventsFor = async (type: string, rewardId: string) =>
    new Set((await outbox.pending()).filter((e) => e.type === type && e.json.includes(rewardId)).map((e) => e.id)).size;
  const campaignTotals = async (reward: RewardDoc) => (await rewardStats(store, appId, { campaignId: reward.campaignId })).total;
  // What a process wrote before dying mid-move: the status alone, straight to the collection.
  const setStatus = (rewardId: string, fields: { status: RewardStatusName; cancelledAt?: Date }) =>
    rewardModel(db).updateOne({ _id: rewardId, appId }, { $set: fields }).exec();

  beforeAll(async () => {
    ({ db, outbox, store } = await rewardOnTestDatabase('reward_crash'));
  });

  afterAll(() => db.drop());

  it('finishes a redeem that died after journaling the move, before the status', async () => {
    const reward = await create();
    const redeemedAt = new Date('2026-11-01T10:00:00Z');
    await store.moves.begin(appId, reward._id, 'APPROVED', 'PAID', { redeemedAt });
    // Until recovered, the status is still APPROVED but a second redeem cannot make a second move.
    await expect(redeemReward(store, appId, reward._id, reward.userId)).rejects.toMatchObject({ message: expect.stringContaining('is PAID') });

    expect(await finishOpen(0)).toBeGreaterThanOrEqual(1);
    const after = await rewardOf(store, appId, reward._id);
    expect(after).toMatchObject({ status: 'PAID', redeemedAt });
    expect(await campaignTotals(reward)).toEqual({ pending: 0, approved: 0, paid: 10, cancelled: 0, count: 1 });
    expect(await eventsFor('reward.redeemed', reward._id)).toBe(1);
    expect((await store.moves.get(appId, reward._id, 'APPROVED'))?.done).toBe(true);
  });

  it('answers a retry of the redeem that paid (same operation key) with the paid reward, finishing its move', async () => {
    const reward = await create();
    const op = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
    // The first try journaled its move and died: the retry finishes it and answers PAID.
    await store.moves.begin(appId, reward._id, 'APPROVED', 'PAID', { redeemedAt: new Date() }, op);
    await expect(redeemReward(store, appId, reward._id, reward.userId, op)).resolves.toMatchObject({ _id: reward._id, status: 'PAID' });
    // And again, once finished; counted and announced once.
    await expect(redeemReward(store, appId, reward._id, reward.userId, op)).resolves.toMatchObject({ status: 'PAID' });
    expect(await campaignTotals(reward)).toEqual({ pending: 0, approved: 0, paid: 10, cancelled: 0, count: 1 });
    expect(await eventsFor('reward.redeemed', reward._id)).toBe(1);
    // Another request (another key, or none) is a second redeem: refused.
    await expect(redeemReward(store, appId, reward._id, reward.userId, 'ffff')).rejects.toMatchObject({ message: expect.stringContaining('is PAID') });
    await expect(redeemReward(store, appId, reward._id, reward.userId)).rejects.toMatchObject({ message: expect.stringContaining('is PAID') });
  });

  it('finishes a cancellation that died after the status, before its totals, place and event', async () => {
    const reward = await create({ hold: true, maxRewardsPerUser: 1 });
    const cancelledAt = new Date();
    await store.moves.begin(appId, reward._id, 'PENDING', 'CANCELLED', { cancelledAt });
    await setStatus(reward._id, { status: 'CANCELLED', cancelledAt });
    expect(await rewardSlotModel(db).countDocuments({ appId, rewardId: reward._id }).exec()).toBe(1);

    await finishOpen(0);
    expect(await campaignTotals(reward)).toEqual({ pending: 0, approved: 0, paid: 0, cancelled: 10, count: 1 });
    expect(await rewardSlotModel(db).countDocuments({ appId, rewardId: reward._id }).exec()).toBe(0);
    expect(await eventsFor('reward.cancelled', reward._id)).toBe(1);
    // Nothing is left open, and a second pass changes nothing.
    await finishOpen(0);
    expect(await campaignTotals(reward)).toEqual({ pending: 0, approved: 0, paid: 0, cancelled: 10, count: 1 });
  });

  it('counts the totals once when the request and the recovery pass finish the same move together', async () => {
    const reward = await create({ hold: true });
    const move = (await store.moves.begin(appId, reward._id, 'PENDING', 'APPROVED', { approvedAt: new Date() }))!;
    await Promise.all([finishMove(store, move), finishOpen(0), finishMove(store, move)]);
    expect(await campaignTotals(reward)).toEqual({ pending: 0, approved: 10, paid: 0, cancelled: 0, count: 1 });
    expect((await rewardOf(store, appId, reward._id)).status).toBe('APPROVED');
  });

  /** What a first CreateReward call wrote before dying: its reward, and (since the journal exists) its creation journal. */
  const crashedCreation = async (retry: CreateRewardInput, journaled: boolean): Promise<string> => {
    const now = new Date();
    const { conversionId, side, level, userId, campaignId, referralId, amount, fulfillmentType } = retry;
    const rewardId = `rwd_crashed_${conversionId}`;
    if (journaled) await beginCreation(store, appId, rewardId, 'APPROVED');
    await rewardModel(db).create({
      _id: rewardId,
      appId,
      ...{ conversionId, side, level, userId, campaignId, referralId, amount, fulfillmentType },
      ...{ status: 'APPROVED', expiresAt: null, claimedAt: null, redeemedAt: null, approvedAt: now, cancelledAt: null },
      ...{ codeValidityDays: 90, createdAt: now, updatedAt: now },
    });
    return rewardId;
  };

  it('gives a created reward its totals and events when the creating call died before them and is retried', async () => {
    const retry = request({ side: 'REFEREE', amount: 5, fulfillmentType: 'MANUAL' });
    const rewardId = await crashedCreation(retry, true);
    const retried = await Promise.all([createReward(store, appId, retry), createReward(store, appId, retry)]);
    expect(retried.map((r) => r.reward?._id)).toEqual([rewardId, rewardId]);
    expect((await rewardStats(store, appId, { campaignId: retry.campaignId })).total).toEqual({ pending: 0, approved: 5, paid: 0, cancelled: 0, count: 1 });
    expect(await eventsFor('reward.created', rewardId)).toBe(1);
    expect(await eventsFor('reward.approved', rewardId)).toBe(1);
  });

  it('never counts again a reward made before the journal existed when its creation is replayed', async () => {
    const retry = request({ amount: 7 });
    const rewardId = await crashedCreation(retry, false);
    const made = await rewardOf(store, appId, rewardId);
    await store.totals.add(appId, made.campaignId, totalsIncrements(made, null, 'APPROVED')); // what the code of that time counted
    await createReward(store, appId, retry);
    expect((await rewardStats(store, appId, { campaignId: retry.campaignId })).total).toEqual({ pending: 0, approved: 7, paid: 0, cancelled: 0, count: 1 });
  });

  it('voids a move whose reward another writer took elsewhere (a replica without the journal, mid-upgrade)', async () => {
    const reward = await create();
    await store.moves.begin(appId, reward._id, 'APPROVED', 'PAID', { redeemedAt: new Date() });
    await setStatus(reward._id, { status: 'CANCELLED' });
    await finishOpen(0);
    expect((await rewardOf(store, appId, reward._id)).status).toBe('CANCELLED');
    expect(await eventsFor('reward.redeemed', reward._id)).toBe(0);
    expect((await campaignTotals(reward)).paid).toBe(0);
    expect((await store.moves.get(appId, reward._id, 'APPROVED'))?.done).toBe(true);
  });

  it('gives back the place a creation took when its call died before the insert', async () => {
    const { campaignId, userId } = request();
    const rewardId = 'rwd_never_inserted';
    expect(await store.slots.reserve(appId, campaignId, userId, 1, rewardId)).toBe(true);
    // Journaled 11 minutes ago, and the reward never came.
    await rewardMoveModel(db).create({ _id: `${rewardId}:NEW`, appId, rewardId, from: 'NEW', to: 'APPROVED', fields: {}, at: new Date(Date.now() - 11 * 60_000), done: false });
    await finishOpen(0);
    expect(await rewardSlotModel(db).countDocuments({ appId, rewardId }).exec()).toBe(0);
    expect((await store.moves.get(appId, rewardId, 'NEW'))?.done).toBe(true);
    expect(await store.slots.reserve(appId, campaignId, userId, 1, 'rwd_next')).toBe(true);
  });

  it('leaves moves younger than the threshold to the request still making them', async () => {
    const reward = await create();
    await store.moves.begin(appId, reward._id, 'APPROVED', 'CANCELLED', { cancelledAt: new Date() });
    await finishOpen(60_000);
    expect((await rewardOf(store, appId, reward._id)).status).toBe('APPROVED');
    await finishOpen(0);
    expect((await rewardOf(store, appId, reward._id)).status).toBe('CANCELLED');
  });

  it('cancels a reward whose approval is journaled but unfinished, instead of dropping the cancellation', async () => {
    // A clean score approves the held reward while a review rejects its
    // conversion: the approval is journaled first (and its call is slow, or died).
    const reward = await create({ hold: true });
    await store.moves.begin(appId, reward._id, 'PENDING', 'APPROVED', { approvedAt: new Date() });

    const cancelled = await cancelConversionRewards(store, appId, reward.conversionId);
    expect(cancelled.map((r) => r._id)).toEqual([reward._id]);
    expect(await rewardOf(store, appId, reward._id)).toMatchObject({ status: 'CANCELLED', approvedAt: expect.any(Date), cancelledAt: expect.any(Date) });
    // The approval ran its course first (its event included), then the cancellation; totals count the end state once.
    expect(await eventsFor('reward.approved', reward._id)).toBe(1);
    expect(await eventsFor('reward.cancelled', reward._id)).toBe(1);
    expect(await campaignTotals(reward)).toEqual({ pending: 0, approved: 0, paid: 0, cancelled: 10, count: 1 });
    // Recovery finds nothing left to do, and the slow approval finishing late changes nothing.
    await finishOpen(0);
    const approval = await store.moves.get(appId, reward._id, 'PENDING');
    await finishMove(store, { ...approval!, done: false });
    expect((await rewardOf(store, appId, reward._id)).status).toBe('CANCELLED');
    expect(await campaignTotals(reward)).toEqual({ pending: 0, approved: 0, paid: 0, cancelled: 10, count: 1 });
  });

  it('finishes a journaled cancellation it races instead of reporting it as its own', async () => {
    const reward = await create();
    await store.moves.begin(appId, reward._id, 'APPROVED', 'CANCELLED', { cancelledAt: new Date() });
    expect(await cancelConversionRewards(store, appId, reward.conversionId)).toEqual([]);
    expect((await rewardOf(store, appId, reward._id)).status).toBe('CANCELLED');
    expect(await eventsFor('reward.cancelled', reward._id)).toBe(1);
  });
});
