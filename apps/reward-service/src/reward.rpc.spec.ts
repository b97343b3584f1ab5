import { Code, ConnectError } from '@connectrpc/connect';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { FulfillmentType, RewardSide, RewardStatus } from '@ris/contracts';
import { errorReason } from '@ris/rpc';
import { rewardOnTestDatabase, type RewardOnTestDatabase } from './testing/reward-on-test-database';

// The RPC as the gateway and the referral service call it (an in-process
// Connect transport, the service's own interceptors included), against the
// real database: the tenant of each call, a reward's fields as answered,
// and the domain's refusals as the codes and reasons the gateway maps.
describe('RewardService at its edge', () => {
  let db: RewardOnTestDatabase['db'];
  let rewards: RewardOnTestDatabase['rewards'];
  let n = 0;

  beforeAll(async () => {
    ({ db, rewards } = await rewardOnTestDatabase('reward_rpc'));
  });

  afterAll(() => db.drop());

  const refusal = async (call: Promise<unknown>) => {
    const err = await call.then(
      () => null,
      (thrown: unknown) => thrown,
    );
    if (!(err instanceof ConnectError)) throw new Error(`expected a ConnectError, got ${String(err)}`);
    return { code: err.code, message: err.rawMessage, ...errorReason(err) };
  };
  const create = (appId: string, fields: { amount?: number; currency?: string; fulfillmentType?: FulfillmentType; hold?: boolean } = {}) => {
    n += 1;
    return rewards.createReward({
      appId,
      conversionId: `conv_${n}`,
      side: RewardSide.REFERRER,
      level: 1,
      userId: 'ann',
      campaignId: 'cmp_1',
      referralId: `ref_${n}`,
      amount: 10,
      fulfillmentType: FulfillmentType.DISCOUNT_CODE,
      hold: false,
      codeValidityDays: 30,
      ...fields,
    });
  };

  it('acts for the app of each call, and refuses a call without one', async () => {
    expect(await refusal(rewards.listRewards({ appId: ' ' }))).toEqual({ code: Code.InvalidArgument, message: 'appId is required', reason: 'VALIDATION_ERROR' });
    const { reward } = await create(' app_a ');
    expect((await rewards.getReward({ appId: 'app_a', rewardId: reward!.id })).reward?.id).toBe(reward!.id);
    expect(await refusal(rewards.getReward({ appId: 'app_b', rewardId: reward!.id }))).toEqual({
      code: Code.NotFound,
      message: 'Reward not found',
      reason: 'NOT_FOUND',
      details: { rewardId: reward!.id },
    });
  });

  it("answers a reward with its fields, its code once claimed", async () => {
    const { reward, created, capped } = await create('app_a', { amount: 12.5, currency: 'EUR' });
    expect([created, capped]).toEqual([true, false]);
    const { $typeName: _type, createdAt, updatedAt, ...fields } = reward!;
    expect(fields).toEqual({
      id: expect.stringMatching(/^rwd_/),
      userId: 'ann',
      campaignId: 'cmp_1',
      referralId: `ref_${n}`,
      conversionId: `conv_${n}`,
      side: RewardSide.REFERRER,
      level: 1,
      amount: 12.5,
      earnedAmount: 12.5,
      reversedAmount: 0,
      clawedBack: 0,
      currency: 'EUR',
      fulfillmentType: FulfillmentType.DISCOUNT_CODE,
      status: RewardStatus.APPROVED,
    });
    expect(timestampDate(createdAt!)).toEqual(timestampDate(updatedAt!));
    // A caller one release behind names no currency: its campaigns are USD.
    expect((await create('app_a')).reward?.currency).toBe('USD');

    const claimed = (await rewards.claimReward({ appId: 'app_a', rewardId: reward!.id })).reward!;
    expect(claimed.discountCode).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    const validity = timestampDate(claimed.expiresAt!).getTime() - timestampDate(claimed.claimedAt!).getTime();
    expect(validity).toBe(30 * 86_400_000);
    expect(await rewards.validateCode({ appId: 'app_a', code: claimed.discountCode!.toLowerCase() })).toMatchObject({ valid: true, code: claimed.discountCode });
  });

  it("turns the domain's refusals into the codes, reasons and details the gateway maps", async () => {
    expect(await refusal(create('app_a', { amount: -1 }))).toEqual({ code: Code.InvalidArgument, message: 'amount must be a non-negative number', reason: 'VALIDATION_ERROR' });

    const held = (await create('app_a', { hold: true })).reward!;
    expect(await refusal(rewards.claimReward({ appId: 'app_a', rewardId: held.id }))).toEqual({
      code: Code.FailedPrecondition,
      message: `Reward ${held.id} is PENDING; only an APPROVED reward can be claimed.`,
      reason: 'REWARD_NOT_CLAIMABLE',
      details: { rewardId: held.id, status: 'PENDING', fulfillmentType: 'DISCOUNT_CODE' },
    });
    expect(await refusal(rewards.redeemReward({ appId: 'app_a', rewardId: held.id, userId: 'ann', operationKey: '' }))).toEqual({
      code: Code.Aborted,
      message: `Reward ${held.id} is PENDING; only an APPROVED reward can be redeemed.`,
      reason: 'INVALID_TRANSITION',
      details: { rewardId: held.id, status: 'PENDING' },
    });
    expect(await refusal(rewards.redeemReward({ appId: 'app_a', rewardId: held.id, userId: 'bob', operationKey: '' }))).toMatchObject({
      code: Code.NotFound,
      details: { rewardId: held.id, userId: 'bob' },
    });
  });
});
