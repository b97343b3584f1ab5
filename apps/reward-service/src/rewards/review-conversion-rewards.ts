import { moveRewardTo } from '../moves/move-reward';
import type { RewardDoc, RewardStatusName } from './reward.model';
import type { RewardStore } from './reward-store';
import { statesBefore } from '../moves/reward-transitions';

/**
 * Moves every reward of one conversion to `to` (APPROVED after a clean
 * score or an approved fraud review; CANCELLED after a rejected one). Each
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
  const candidates = await store.rewards.movableOf(appId, conversionId, statesBefore(to));
  const moved: RewardDoc[] = [];
  for (const candidate of candidates) {
    const now = new Date();
    const updated = await moveRewardTo(store, candidate, to, to === 'APPROVED' ? { approvedAt: now } : { cancelledAt: now });
    if (!updated) continue;
    moved.push(updated);
  }
  return moved;
}

export const approveConversionRewards = (store: RewardStore, appId: string, conversionId: string) =>
  moveConversionRewards(store, appId, conversionId, 'APPROVED');

export const cancelConversionRewards = (store: RewardStore, appId: string, conversionId: string) =>
  moveConversionRewards(store, appId, conversionId, 'CANCELLED');
