import { notFound } from '@ris/domain-errors';
import { inBatches, type PageQuery } from '@ris/mongo';
import type { RewardMoveDoc } from '../moves/reward-move.model';
import { totalsView, type TotalsView } from '../totals/reward-totals';
import type { RewardDoc } from './reward.model';
import type { RewardFilter } from './reward.repository';
import type { RewardStore } from './reward-store';

/** The app's reward, or NotFound. */
export async function rewardOf(store: RewardStore, appId: string, rewardId: string): Promise<RewardDoc> {
  const reward = await store.rewards.findById(appId, rewardId);
  if (!reward) throw notFound('Reward', { rewardId });
  return reward;
}

/** A reward's journal, oldest first: its creation and each status it left (NotFound for no reward of the app). */
export async function rewardHistory(store: RewardStore, appId: string, rewardId: string): Promise<RewardMoveDoc[]> {
  const reward = await rewardOf(store, appId, rewardId);
  return store.moves.history(appId, reward._id);
}

export const listRewards = (store: RewardStore, appId: string, filter: RewardFilter, page: PageQuery) => store.rewards.list(appId, filter, page);

/** Rewards an export sends a message. */
const EXPORT_BATCH = 500;

/** Every reward listRewards would list, in its order, a batch at a time: an export. */
export const exportRewards = (store: RewardStore, appId: string, filter: RewardFilter) => inBatches(store.rewards.all(appId, filter), EXPORT_BATCH);

/** One sale's rewards: the conversion's own (purchaseId null) or a purchase's. */
export const conversionRewards = (store: RewardStore, appId: string, conversionId: string, purchaseId: string | null) =>
  store.rewards.ofSale(appId, conversionId, purchaseId);

/** Reward amounts of a campaign, of a user in a campaign, or of a user over every campaign. */
export async function rewardStats(store: RewardStore, appId: string, scope: { campaignId?: string; userId?: string }): Promise<TotalsView> {
  const docs = scope.campaignId
    ? await store.totals.ofCampaign(appId, scope.campaignId, scope.userId ?? '')
    : await store.totals.ofUser(appId, scope.userId ?? '');
  return totalsView(docs);
}
