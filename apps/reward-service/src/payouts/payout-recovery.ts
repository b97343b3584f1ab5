import type { RewardStore } from '../rewards/reward-store';
import { undoPayout } from './create-payouts';
import type { PayoutDoc } from './payout.model';
import { finishSettlement } from './settle-payout';

/**
 * Finishes payouts a dead process left (a system job across apps, oldest
 * first): one still CREATING (or ABANDONED) is undone, its claims given
 * back; a PAID or FAILED one unsettled is settled. Each under its app's
 * payout lock, so never beside a live operation of this process. Returns
 * how many were looked at.
 */
export async function finishOpenPayouts(store: RewardStore, olderThanMs: number, onError: (err: unknown, payout: PayoutDoc) => void, batchSize = 100): Promise<number> {
  const open = await store.payouts.unfinished(olderThanMs, batchSize);
  for (const payout of open) {
    await store.payouts
      .exclusive(payout.appId, async () => {
        if (payout.status === 'CREATING' || payout.status === 'ABANDONED') await undoPayout(store, payout);
        else await finishSettlement(store, payout);
      })
      .catch((err: unknown) => onError(err, payout));
  }
  return open.length;
}
