import type { PageQuery } from '@ris/mongo';
import type { RewardStore } from '../rewards/reward-store';

/** GET /rewards/clawbacks: what referrers owe back for rewards paid before their sale was reversed, newest first. */
export const listClawbacks = (store: RewardStore, appId: string, userId: string | undefined, page: PageQuery) => store.reversals.clawbacks(appId, userId, page);

/** The sums owed, per currency, by one referrer or by all. */
export const clawbackTotals = (store: RewardStore, appId: string, userId: string | undefined) => store.reversals.clawbackTotals(appId, userId);
