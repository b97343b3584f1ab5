import { conflict, notFound } from '@ris/domain-errors';
import { moveReward } from './move-reward';
import { answerOwnMoveOrRefuse } from './own-move';
import type { RewardDoc } from '../rewards/reward.model';
import type { RewardStore } from '../rewards/reward-store';

/**
 * PENDING or APPROVED → CANCELLED by an operator's decision, with its
 * note (kept on the reward and in its history). Its code, if claimed, no
 * longer validates. Of concurrent moves out of the same status exactly one
 * happens; the others get 409 INVALID_TRANSITION. A retry of the request
 * that cancelled it (same operation key) is answered with the cancelled
 * reward. The referral service asks for it (it keeps the campaign's reward
 * value), never the gateway directly.
 */
export async function cancelReward(store: RewardStore, appId: string, rewardId: string, note: string | null, operationKey = ''): Promise<RewardDoc> {
  const reward = await store.rewards.findById(appId, rewardId);
  if (!reward) throw notFound('Reward', { rewardId });
  const inPayout = (r: RewardDoc) =>
    conflict('REWARD_IN_PAYOUT', `Reward ${rewardId} is in payout ${r.payoutId ?? ''}: mark the payout failed first, or reverse its sale (a clawback).`, { payoutId: r.payoutId ?? null });
  if (reward.payoutId && reward.status === 'APPROVED') throw inPayout(reward);
  const from = reward.status;
  const cancelled =
    from === 'PENDING' || from === 'APPROVED' ? await moveReward(store, reward, 'CANCELLED', { cancelledAt: new Date(), cancellationNote: note }, operationKey || null) : null;
  if (cancelled) return cancelled;
  // Put in a payout between the read and the move (the move was discarded).
  const now = await store.rewards.findById(appId, rewardId);
  if (now?.payoutId && now.status === 'APPROVED') throw inPayout(now);
  return answerOwnMoveOrRefuse(store, reward, { from: ['PENDING', 'APPROVED'], to: 'CANCELLED', operationKey }, (status) =>
    `Reward ${rewardId} is ${status}; only a PENDING or APPROVED reward can be cancelled.`,
  );
}
