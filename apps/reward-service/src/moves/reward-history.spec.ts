import { Code } from '@connectrpc/connect';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { FulfillmentType, RewardSide, RewardStatus } from '@ris/contracts';
import type { RewardStore } from '../rewards/reward-store';
import { rewardOnTestDatabase, type RewardOnTestDatabase } from '../testing/reward-on-test-database';
import { redeemReward } from './redeem-reward';

// GetRewardHistory as the gateway calls it (an in-process Connect
// transport), against the real database: the move journal read back.
describe('a reward history', () => {
  let db: RewardOnTestDatabase['db'];
  let store: RewardStore;
  let rewards: RewardOnTestDatabase['rewards'];

  beforeAll(async () => {
    ({ db, store, rewards } = await rewardOnTestDatabase('reward_history'));
  });

  afterAll(() => db.drop());

  const create = async (conversionId: string, hold: boolean) =>
    (
      await rewards.createReward({
        appId: 'app_h',
        conversionId,
        side: RewardSide.REFERRER,
        level: 1,
        userId: 'ann',
        campaignId: 'cmp_1',
        referralId: 'ref_1',
        amount: 10,
        fulfillmentType: FulfillmentType.DISCOUNT_CODE,
        hold,
        codeValidityDays: 90,
      })
    ).reward!;
  const history = async (rewardId: string, appId = 'app_h') =>
    (await rewards.getRewardHistory({ appId, rewardId })).moves.map((m) => [m.from === undefined ? 'NEW' : RewardStatus[m.from], RewardStatus[m.to], timestampDate(m.at!).getTime()]);

  it('lists the creation and every move, oldest first', async () => {
    const held = await create('conv_1', true);
    await rewards.approveConversionRewards({ appId: 'app_h', conversionId: 'conv_1' });
    await redeemReward(store, 'app_h', held.id, 'ann');
    const moves = await history(held.id);
    expect(moves.map(([from, to]) => [from, to])).toEqual([
      ['NEW', 'PENDING'],
      ['PENDING', 'APPROVED'],
      ['APPROVED', 'PAID'],
    ]);
    const times = moves.map(([, , at]) => at as number);
    expect([...times].sort((a, b) => a - b)).toEqual(times);

    const cancelled = await create('conv_2', false);
    await rewards.cancelConversionRewards({ appId: 'app_h', conversionId: 'conv_2' });
    expect((await history(cancelled.id)).map(([from, to]) => [from, to])).toEqual([
      ['NEW', 'APPROVED'],
      ['APPROVED', 'CANCELLED'],
    ]);
  });

  it("is 404 for an unknown reward and for another app's", async () => {
    const reward = await create('conv_3', false);
    await expect(rewards.getRewardHistory({ appId: 'app_h', rewardId: 'rwd_nope' })).rejects.toMatchObject({ code: Code.NotFound });
    await expect(rewards.getRewardHistory({ appId: 'app_other', rewardId: reward.id })).rejects.toMatchObject({ code: Code.NotFound });
  });
});
