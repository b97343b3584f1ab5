import { Code, notFound, rpcError } from '@ris/rpc';
import { moveReward } from './move-reward';
import type { RewardDoc } from './reward.model';
import type { RewardStore } from './reward-store';

/**
 * APPROVED → PAID for the reward's own user. Of two concurrent redeems
 * exactly one moves the reward (moveReward); the other gets 409
 * INVALID_TRANSITION.
 */
export async function redeemReward(store: RewardStore, appId: string, rewardId: string, userId: string): Promise<RewardDoc> {
  const reward = await store.rewards.findOne(appId, { _id: rewardId });
  // Someone else's reward is as unknown as a missing one.
  if (!reward || reward.userId !== userId) throw notFound('Reward', { rewardId, userId });
  const paid = reward.status === 'APPROVED' ? await moveReward(store, reward, 'PAID', { redeemedAt: new Date() }) : null;
  if (!paid) {
    const current = (await store.rewards.findOne(appId, { _id: rewardId })) ?? reward;
    const status = current.status === 'APPROVED' ? 'PAID' : current.status; // lost the race to a redeem still finishing
    throw rpcError(Code.Aborted, 'INVALID_TRANSITION', `Reward ${rewardId} is ${status}; only an APPROVED reward can be redeemed.`, {
      rewardId,
      status,
    });
  }
  return paid;
}
