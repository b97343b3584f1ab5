import { Code, ConnectError } from '@connectrpc/connect';
import { FulfillmentType, RewardSide, RewardStatus } from '@ris/contracts';
import { rewardOnTestDatabase, type RewardOnTestDatabase } from '../testing/reward-on-test-database';

// ExportRewards as the gateway streams it (an in-process transport, the
// service's interceptors included) against the real database: every reward
// ListRewards pages, in its order, a batch a message, for each filter.
describe('ExportRewards', () => {
  let db: RewardOnTestDatabase['db'];
  let rewards: RewardOnTestDatabase['rewards'];

  const create = (n: number, fields: { userId: string; fulfillmentType: FulfillmentType; hold: boolean }) =>
    rewards.createReward({
      appId: 'app_a',
      conversionId: `conv_${n}`,
      side: RewardSide.REFERRER,
      level: 1,
      campaignId: 'cmp_1',
      referralId: `ref_${n}`,
      amount: 10,
      codeValidityDays: 30,
      ...fields,
    });

  /** Every page of ListRewards, 100 at a time. */
  type Filter = { appId: string; userId?: string; status?: RewardStatus; fulfillmentType?: FulfillmentType };

  const listed = async (req: Filter) => {
    const ids: string[] = [];
    for (let page = 1; ; page += 1) {
      const res = await rewards.listRewards({ ...req, page: { page, limit: 100 } });
      ids.push(...res.rewards.map((r) => r.id));
      if (res.rewards.length < 100) return ids;
    }
  };

  /** The export's messages, as the sizes of its batches and the ids in order. */
  const exported = async (req: Filter) => {
    const batches: string[][] = [];
    for await (const message of rewards.exportRewards(req)) batches.push(message.rewards.map((r) => r.id));
    return { sizes: batches.map((b) => b.length), ids: batches.flat() };
  };

  beforeAll(async () => {
    ({ db, rewards } = await rewardOnTestDatabase('reward_export'));
    // 520 rewards: a full batch and part of a second; every seventh a coupon, every tenth held (PENDING), every third bob's.
    for (let start = 0; start < 520; start += 40) {
      await Promise.all(
        Array.from({ length: 40 }, (_, i) => start + i).map((n) =>
          create(n, { userId: n % 3 === 0 ? 'bob' : 'ann', fulfillmentType: n % 7 === 0 ? FulfillmentType.COUPON_CODE : FulfillmentType.DISCOUNT_CODE, hold: n % 10 === 0 }),
        ),
      );
    }
    await rewards.createReward({ appId: 'app_b', conversionId: 'conv_other', side: RewardSide.REFERRER, level: 1, userId: 'ann', campaignId: 'cmp_9', referralId: 'ref_9', amount: 1, fulfillmentType: FulfillmentType.DISCOUNT_CODE, codeValidityDays: 30 });
  }, 120_000);

  afterAll(() => db.drop());

  it("streams every reward of the app in the list's order, 500 a message", async () => {
    const all = await exported({ appId: 'app_a' });
    expect(all.sizes).toEqual([500, 20]);
    expect(all.ids).toEqual(await listed({ appId: 'app_a' }));
  }, 30_000);

  it('applies each filter of the list, and their combination', async () => {
    for (const filter of [
      { userId: 'bob' },
      { status: RewardStatus.PENDING },
      { fulfillmentType: FulfillmentType.COUPON_CODE },
      { userId: 'ann', status: RewardStatus.APPROVED, fulfillmentType: FulfillmentType.COUPON_CODE },
    ]) {
      const { ids } = await exported({ appId: 'app_a', ...filter });
      expect(ids.length).toBeGreaterThan(0);
      expect([filter, ids]).toEqual([filter, await listed({ appId: 'app_a', ...filter })]);
    }
    expect(await exported({ appId: 'app_a', userId: 'nobody' })).toEqual({ sizes: [], ids: [] });
  }, 30_000);

  it('acts for the app of the request, and refuses one without', async () => {
    expect((await exported({ appId: 'app_b' })).sizes).toEqual([1]);
    const refused = await exported({ appId: ' ' }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ConnectError);
    expect((refused as ConnectError).code).toBe(Code.InvalidArgument);
  });
});
