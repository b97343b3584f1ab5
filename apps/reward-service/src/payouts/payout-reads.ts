import { inBatches, type PageQuery } from '@ris/mongo';
import type { RewardDoc } from '../rewards/reward.model';
import type { RewardStore } from '../rewards/reward-store';
import type { RewardReversalDoc } from '../reversals/reward-reversal.model';
import type { PayoutDoc } from './payout.model';
import type { PayoutFilter } from './payout.repository';
import { listedPayout } from './settle-payout';

/** Payouts an export sends a message. */
const EXPORT_BATCH = 500;

export const listPayouts = (store: RewardStore, appId: string, filter: PayoutFilter, page: PageQuery) => store.payouts.list(appId, filter, page);

/** Every payout listPayouts would list (with the export's period), in its order, a batch at a time: one batch in memory. */
export const exportPayouts = (store: RewardStore, appId: string, filter: PayoutFilter) => inBatches(store.payouts.all(appId, filter), EXPORT_BATCH);

/** A payout with the rewards it pays and the clawbacks it nets (as they are now), oldest first. */
export async function payoutWithItems(store: RewardStore, appId: string, payoutId: string): Promise<{ payout: PayoutDoc; rewards: RewardDoc[]; clawbacks: RewardReversalDoc[] }> {
  const payout = await listedPayout(store, appId, payoutId);
  const [rewards, clawbacks] = await Promise.all([store.rewards.byIds(appId, payout.rewardIds), store.reversals.byIds(appId, payout.clawbackIds)]);
  const oldestFirst = <T extends { _id: string; createdAt: Date }>(a: T, b: T) => a.createdAt.getTime() - b.createdAt.getTime() || (a._id < b._id ? -1 : 1);
  return { payout, rewards: rewards.sort(oldestFirst), clawbacks: clawbacks.sort(oldestFirst) };
}
