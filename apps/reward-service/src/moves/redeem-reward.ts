import { notFound, refused } from '@ris/domain-errors';
import { moveReward } from './move-reward';
import { answerOwnMoveOrRefuse } from './own-move';
import type { RewardDoc } from '../rewards/reward.model';
import type { RewardStore } from '../rewards/reward-store';

/**
 * APPROVED → PAID for the reward's own user. Of two concurrent redeems
 * exactly one moves the reward (moveReward); the other gets 409
 * INVALID_TRANSITION. A retry of the request that paid it (the same
 * operation key, from its Idempotency-Key) is answered with the paid
 * reward, its move finished if a crash cut it short.
 */
export async function redeemReward(store: RewardStore, appId: string, rewardId: string, userId: string, operationKey = ''): Promise<RewardDoc> {
  const reward = await store.rewards.findById(appId, rewardId);
  // Someone else's reward is as unknown as a missing one.
  if (!reward || reward.userId !== userId) throw notFound('Reward', { rewardId, userId });
  if (reward.fulfillmentType === 'CASH') {
    throw refused('REWARD_NOT_REDEEMABLE', `Reward ${rewardId} is CASH: it is paid through a payout (POST /payouts), not redeemed.`);
  }
  const paid = reward.status === 'APPROVED' ? await moveReward(store, reward, 'PAID', { redeemedAt: new Date() }, operationKey || null) : null;
  if (!paid) {
    return answerOwnMoveOrRefuse(store, reward, { from: ['APPROVED'], to: 'PAID', operationKey }, (status) => `Reward ${rewardId} is ${status}; only an APPROVED reward can be redeemed.`);
  }
  return paid;
}
