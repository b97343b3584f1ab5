import { Outbox } from '@ris/events';
import { testDatabase } from '@ris/testing';
import { createReward, type CreateRewardInput } from './create-reward';
import { finishMove, finishOpenMoves } from './move-reward';
import { redeemReward } from './redeem-reward';
import { cancelConversionRewards } from './review-conversion-rewards';
import { rewardMoveModel } from './reward-move.model';
import { rewardModel, type RewardDoc } from './reward.model';
import { rewardSlotModel } from './reward-slot.model';
import { RewardStore } from './reward-store';
import { rewardTotalsModel } from './reward-totals.model';

// A process can die between any two writes of a reward's move (no
// transactions). Each case stops a move where a crash would, by writing
// only its first steps, then runs the recovery pass: the reward must end
// as the finished move would have left it, its totals counted once and
// its event on the outbox.
describe('reward moves interrupted by a crash', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let store: RewardStore;
  let outbox: Outbox;
  let n = 0;
  const appId = 'app_crash';

  const request = (overrides: Partial<CreateRewardInput> = {}): CreateRewardInput => {
    n += 1;
    return {
      ...{ conversionId: `conv_${n}`, side: 'REFERRER', level: 1, userId: `user_${n}`, campaignId: `cmp_${n}`, referralId: `ref_${n}` },
      ...{ amount: 10, fulfillmentType: 'DISCOUNT_CODE', hold: false, maxRewardsPerUser: null, codeValidityDays: 90 },
      ...overrides,
    };
  };
  const create = async (overrides: Partial<CreateRewardInput> = {}): Promise<RewardDoc> => (await createReward(store, appId, request(overrides))).reward!;
  const eventsFor = (type: string, rewardId: string) => outbox.model.countDocuments({ type, event: { $regex: rewardId } }).exec();
  const campaignTotals = async (reward: RewardDoc) => (await store.totals.view(appId, { campaignId: reward.campaignId })).total;

  beforeAll(async () => {
    db = await testDatabase('reward_crash');
    outbox = new Outbox(db);
    store = new RewardStore(db, outbox);
    await Promise.all([rewardModel(db), rewardMoveModel(db), rewardSlotModel(db), rewardTotalsModel(db), outbox.model].map((m) => m.init()));
  });

  afterAll(() => db.drop());

  it('finishes a redeem that died after journaling the move, before the status', async () => {
    const reward = await create();
    const redeemedAt = new Date('2026-11-01T10:00:00Z');
    await store.moves.begin(appId, reward._id, 'APPROVED', 'PAID', { redeemedAt });
    // Until recovered, the status is still APPROVED but a second redeem cannot make a second move.
    await expect(redeemReward(store, appId, reward._id, reward.userId)).rejects.toMatchObject({ rawMessage: expect.stringContaining('is PAID') });

    expect(await finishOpenMoves(store, 0)).toBeGreaterThanOrEqual(1);
    const after = await store.get(appId, reward._id);
    expect(after).toMatchObject({ status: 'PAID', redeemedAt });
    expect(await campaignTotals(reward)).toEqual({ pending: 0, approved: 0, paid: 10, cancelled: 0, count: 1 });
    expect(await eventsFor('reward.redeemed', reward._id)).toBe(1);
    expect((await store.moves.get(appId, reward._id, 'APPROVED'))?.done).toBe(true);
  });

  it('finishes a cancellation that died after the status, before its totals, place and event', async () => {
    const reward = await create({ hold: true, maxRewardsPerUser: 1 });
    const cancelledAt = new Date();
    await store.moves.begin(appId, reward._id, 'PENDING', 'CANCELLED', { cancelledAt });
    await store.rewards.updateOne(appId, { _id: reward._id }, { $set: { status: 'CANCELLED', cancelledAt } });
    expect(await rewardSlotModel(db).countDocuments({ appId, rewardId: reward._id }).exec()).toBe(1);

    await finishOpenMoves(store, 0);
    expect(await campaignTotals(reward)).toEqual({ pending: 0, approved: 0, paid: 0, cancelled: 10, count: 1 });
    expect(await rewardSlotModel(db).countDocuments({ appId, rewardId: reward._id }).exec()).toBe(0);
    expect(await eventsFor('reward.cancelled', reward._id)).toBe(1);
    // Nothing is left open, and a second pass changes nothing.
    await finishOpenMoves(store, 0);
    expect(await campaignTotals(reward)).toEqual({ pending: 0, approved: 0, paid: 0, cancelled: 10, count: 1 });
  });

  it('counts the totals once when the request and the recovery pass finish the same move together', async () => {
    const reward = await create({ hold: true });
    const move = (await store.moves.begin(appId, reward._id, 'PENDING', 'APPROVED', { approvedAt: new Date() }))!;
    await Promise.all([finishMove(store, move), finishOpenMoves(store, 0), finishMove(store, move)]);
    expect(await campaignTotals(reward)).toEqual({ pending: 0, approved: 10, paid: 0, cancelled: 0, count: 1 });
    expect((await store.get(appId, reward._id)).status).toBe('APPROVED');
  });

  it('gives a created reward its totals and events when the creating call died before them and is retried', async () => {
    const retry = request({ side: 'REFEREE', amount: 5, fulfillmentType: 'CASH' });
    // What the first call wrote before dying: the reward alone.
    const now = new Date();
    const { conversionId, side, level, userId, campaignId, referralId, amount, fulfillmentType } = retry;
    await store.rewards.create(appId, {
      _id: `rwd_crashed_${conversionId}`,
      ...{ conversionId, side, level, userId, campaignId, referralId, amount, fulfillmentType },
      status: 'APPROVED',
      expiresAt: null,
      claimedAt: null,
      redeemedAt: null,
      approvedAt: now,
      cancelledAt: null,
      codeValidityDays: 90,
      createdAt: now,
      updatedAt: now,
    });
    const retried = await Promise.all([createReward(store, appId, retry), createReward(store, appId, retry)]);
    expect(retried.map((r) => r.reward?._id)).toEqual([`rwd_crashed_${conversionId}`, `rwd_crashed_${conversionId}`]);
    expect((await store.totals.view(appId, { campaignId })).total).toEqual({ pending: 0, approved: 5, paid: 0, cancelled: 0, count: 1 });
    expect(await eventsFor('reward.created', `rwd_crashed_${conversionId}`)).toBe(1);
    expect(await eventsFor('reward.approved', `rwd_crashed_${conversionId}`)).toBe(1);
  });

  it('leaves moves younger than the threshold to the request still making them', async () => {
    const reward = await create();
    await store.moves.begin(appId, reward._id, 'APPROVED', 'CANCELLED', { cancelledAt: new Date() });
    await finishOpenMoves(store, 60_000);
    expect((await store.get(appId, reward._id)).status).toBe('APPROVED');
    await cancelConversionRewards(store, appId, reward.conversionId); // loses to the open move: changes nothing
    expect((await store.get(appId, reward._id)).status).toBe('APPROVED');
    await finishOpenMoves(store, 0);
    expect((await store.get(appId, reward._id)).status).toBe('CANCELLED');
  });
});
