import { conflict } from '@ris/domain-errors';
import { finishMove } from './move-reward';
import type { RewardDoc, RewardStatusName } from '../rewards/reward.model';
import type { RewardStore } from '../rewards/reward-store';

/**
 * A request's move to `to` did not happen: if a move journaled out of one
 * of the `from` statuses is this very request's (the same operation key,
 * from its Idempotency-Key), it is a retry, answered with the moved reward
 * (its move finished if a crash cut it short); otherwise 409
 * INVALID_TRANSITION, naming the status the reward is in or on its way to.
 */
export async function answerOwnMoveOrRefuse(
  store: RewardStore,
  reward: RewardDoc,
  /** The statuses the move may have left (a cancellation: PENDING or APPROVED). */
  move: { from: RewardStatusName[]; to: RewardStatusName; operationKey: string },
  refusal: (status: string) => string,
): Promise<RewardDoc> {
  const { appId, _id: rewardId } = reward;
  const journaled = move.operationKey ? await Promise.all(move.from.map((from) => store.moves.get(appId, rewardId, from))) : [];
  const own = journaled.find((m) => m?.operationKey === move.operationKey && m.to === move.to);
  if (own) {
    const finished = own.done ? null : await finishMove(store, own);
    const current = finished ?? (await store.rewards.findById(appId, rewardId));
    if (current?.status === move.to) return current;
  }
  const current = (await store.rewards.findById(appId, rewardId)) ?? reward;
  // Still where it was: another move out of it is finishing; say where it leads.
  const leaving = await store.moves.get(appId, rewardId, current.status);
  const status = leaving && !leaving.done ? leaving.to : current.status;
  throw conflict('INVALID_TRANSITION', refusal(status), { rewardId, status });
}
