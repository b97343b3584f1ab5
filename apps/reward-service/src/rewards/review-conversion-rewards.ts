import { now as clock } from '@ris/config';
import { moveRewardTo } from '../moves/move-reward';
import type { RewardDoc, RewardStatusName } from './reward.model';
import type { RewardStore } from './reward-store';
import { statesBefore } from '../moves/reward-transitions';

/**
 * Moves every reward of one conversion (its purchases' too) to `to`
 * (APPROVED after a clean score or an approved fraud review, except those
 * still inside their holding period; CANCELLED after a rejected one). Each
 * move out of a status happens once (the journal), so calling this again,
 * or from two replicas, is harmless; a move already journaled by another
 * call is finished first and the reward taken on to `to` (moveRewardTo).
 * The result lists only the rewards this call moved.
 */
async function moveConversionRewards(
  store: RewardStore,
  appId: string,
  conversionId: string,
  to: Extract<RewardStatusName, 'APPROVED' | 'CANCELLED'>,
): Promise<RewardDoc[]> {
  // An approval ends the review's hold; a reward still inside its holding period waits for the release pass.
  if (to === 'APPROVED') await store.rewards.releaseReview(appId, conversionId);
  const candidates = (await store.rewards.movableOf(appId, conversionId, statesBefore(to))).filter((r) => to === 'CANCELLED' || !stillHeld(r, clock()));
  const moved: RewardDoc[] = [];
  for (const candidate of candidates) {
    const now = new Date();
    const updated = await moveRewardTo(store, candidate, to, to === 'APPROVED' ? { approvedAt: now } : { cancelledAt: now });
    if (!updated) continue;
    moved.push(updated);
  }
  return moved;
}

/** Inside its holding period (availableAt ahead): not approved by a review, only by the release pass once it passes. */
export const stillHeld = (reward: Pick<RewardDoc, 'availableAt'>, at: Date) => Boolean(reward.availableAt && reward.availableAt.getTime() > at.getTime());

export const approveConversionRewards = (store: RewardStore, appId: string, conversionId: string) =>
  moveConversionRewards(store, appId, conversionId, 'APPROVED');

export const cancelConversionRewards = (store: RewardStore, appId: string, conversionId: string) =>
  moveConversionRewards(store, appId, conversionId, 'CANCELLED');
