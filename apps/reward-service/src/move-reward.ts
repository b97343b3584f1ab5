import type { DomainEvent } from '@ris/events';
import type { RewardMoveDoc } from './reward-move.model';
import type { RewardDoc, RewardStatusName } from './reward.model';
import { rewardApproved, rewardCancelled, rewardCreated, rewardRedeemed } from './reward-events';
import type { RewardStore } from './reward-store';
import { canTransition } from './reward-transitions';

/**
 * Moves a reward out of its current status, at most once per status: the
 * move is journaled first under a unique key (RewardMoveDoc), and only the
 * caller that journaled it changes the reward. Of concurrent moves exactly
 * one happens. Returns the moved reward, or null when another move got
 * there first.
 */
export async function moveReward(
  store: RewardStore,
  reward: RewardDoc,
  to: RewardStatusName,
  fields: Partial<RewardDoc> = {},
): Promise<RewardDoc | null> {
  if (!canTransition(reward.status, to)) return null;
  const move = await store.moves.begin(reward.appId, reward._id, reward.status, to, fields);
  return move ? finishMove(store, move) : null;
}

/** A new reward's totals and events, journaled like a move out of NEW. Safe to call again for the same reward. */
export async function settleCreation(store: RewardStore, reward: RewardDoc): Promise<void> {
  // Created APPROVED or held PENDING; one created APPROVED has approvedAt = createdAt (it may have moved on since).
  const createdAs: RewardStatusName = reward.approvedAt?.getTime() === reward.createdAt.getTime() ? 'APPROVED' : 'PENDING';
  const move = (await store.moves.begin(reward.appId, reward._id, 'NEW', createdAs, {})) ?? (await store.moves.get(reward.appId, reward._id, 'NEW'));
  if (move && !move.done) await finishMove(store, move);
}

/**
 * Writes everything a journaled move owes, each step safe to repeat: the
 * status only while the reward is still in `from`, the totals once (a
 * marker per move), the place release (a delete), the event (a stable id).
 * So the request that made the move and the recovery pass can both run
 * it, even at the same time. Returns the reward, null if it is gone.
 */
export async function finishMove(store: RewardStore, move: RewardMoveDoc): Promise<RewardDoc | null> {
  const { appId, rewardId, from, to } = move;
  const moved =
    from === 'NEW'
      ? null
      : await store.rewards.findOneAndUpdate(appId, { _id: rewardId, status: from }, { $set: { ...move.fields, status: to, updatedAt: move.at } });
  // Unmoved: a creation, or an earlier attempt already changed the status.
  const reward = moved ?? (await store.rewards.findById(appId, rewardId));
  if (reward) {
    if (await store.once.first(appId, `reward-move:${move._id}:totals`)) {
      await store.totals.apply(reward, from === 'NEW' ? null : from, to);
    }
    if (to === 'CANCELLED' && reward.side === 'REFERRER') await store.slots.release(appId, rewardId);
    await store.outbox.add(eventsOf(move, reward));
  }
  await store.moves.done(move);
  return reward;
}

function eventsOf(move: RewardMoveDoc, reward: RewardDoc): DomainEvent[] {
  if (move.from === 'NEW') {
    const created = rewardCreated({ ...reward, status: move.to }); // as created, even if it has moved on since
    return move.to === 'APPROVED' ? [created, rewardApproved(reward)] : [created];
  }
  const byTarget: Partial<Record<RewardStatusName, (r: RewardDoc) => DomainEvent>> = {
    APPROVED: rewardApproved,
    CANCELLED: rewardCancelled,
    PAID: rewardRedeemed,
  };
  const event = byTarget[move.to];
  return event ? [event(reward)] : [];
}

/** Finishes moves whose process died before writing all they owe; returns how many. */
export async function finishOpenMoves(store: RewardStore, olderThanMs: number, batchSize = 100): Promise<number> {
  const open = await store.moves.open(olderThanMs, batchSize);
  for (const move of open) await finishMove(store, move);
  return open.length;
}
