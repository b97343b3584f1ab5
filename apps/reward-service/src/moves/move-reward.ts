import type { DomainEvent } from '@ris/events';
import type { RewardDoc, RewardStatusName } from '../rewards/reward.model';
import type { StatusFields } from '../rewards/reward.repository';
import { rewardApproved, rewardCancelled, rewardCreated, rewardRedeemed } from '../rewards/reward-events';
import { rewardsMoved } from '../rewards/reward-metrics';
import type { RewardStore } from '../rewards/reward-store';
import { totalsIncrements } from '../totals/reward-totals';
import type { RewardMoveDoc } from './reward-move.model';
import { canReach, canTransition } from './reward-transitions';

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
  operationKey: string | null = null,
): Promise<RewardDoc | null> {
  if (!canTransition(reward.status, to)) return null;
  const move = await store.moves.begin(reward.appId, reward._id, reward.status, to, fields, operationKey);
  return move ? finishMove(store, move) : null;
}

// A reward moves through at most PENDING → APPROVED → PAID/CANCELLED.
const MAX_HOPS = 3;

/**
 * Brings a reward to `to` (a decision about it, e.g. its conversion's
 * review): when another move out of its status is journaled but not
 * finished (in flight, or its call died), that move is finished first and
 * the reward goes on from where it leads, instead of this decision being
 * dropped. So a cancellation racing an approval ends CANCELLED, not
 * APPROVED. Returns the reward when this call moved it; null when it was
 * already at `to`, or cannot get there (e.g. PAID).
 */
export async function moveRewardTo(
  store: RewardStore,
  reward: RewardDoc,
  to: RewardStatusName,
  fields: Partial<RewardDoc>,
): Promise<RewardDoc | null> {
  let current: RewardDoc | null = reward;
  for (let hop = 0; current && hop < MAX_HOPS && canTransition(current.status, to); hop += 1) {
    const move = await store.moves.begin(current.appId, current._id, current.status, to, fields);
    if (move) return finishMove(store, move);
    const other = await store.moves.get(current.appId, current._id, current.status);
    if (other && !other.done) await finishMove(store, other);
    current = await store.rewards.findById(current.appId, current._id);
  }
  return null;
}

/**
 * Journals a reward's creation as a move out of NEW, before the reward is
 * inserted: every reward made since the journal exists has one, so a
 * retried CreateReward can finish what the first call left (finishMove)
 * without ever counting a reward twice.
 */
export function beginCreation(store: RewardStore, appId: string, rewardId: string, createdAs: RewardStatusName): Promise<RewardMoveDoc | null> {
  return store.moves.begin(appId, rewardId, 'NEW', createdAs, {});
}

/** A creation's journal left open (its call died after it): finished here. A reward from before the journal has none and is left alone. */
export async function finishCreation(store: RewardStore, reward: RewardDoc): Promise<void> {
  const move = await store.moves.get(reward.appId, reward._id, 'NEW');
  if (move && !move.done) await finishMove(store, move);
}

// A creation journaled this long ago without its reward lost its call before the insert.
const CREATION_ABANDONED_AFTER_MS = 10 * 60_000;

/**
 * Writes everything a journaled move owes, each step safe to repeat: the
 * status only while the reward is still in `from`, the totals once (a
 * marker per move), the place release (a delete), the event (a stable id).
 * So the request that made the move and the recovery pass can both run
 * it, even at the same time. Returns the moved reward; null when the move
 * did not happen (the reward is gone, or not where the move leads).
 */
export async function finishMove(store: RewardStore, move: RewardMoveDoc, created?: RewardDoc): Promise<RewardDoc | null> {
  const { appId, rewardId, from, to } = move;
  const moved =
    from === 'NEW'
      ? null
      : await store.rewards.setStatusFrom(appId, rewardId, from, to, { ...(move.fields as StatusFields), updatedAt: move.at });
  // Unmoved: a creation (the creating call passes its reward), or an earlier attempt already changed the status.
  const reward = moved ?? created ?? (await store.rewards.findById(appId, rewardId));
  if (!reward) {
    // A creation whose insert has not happened (yet): give up on it, and the place it took, only when its call is surely gone.
    if (from === 'NEW' && Date.now() - move.at.getTime() < CREATION_ABANDONED_AFTER_MS) return null;
    if (from === 'NEW') await store.slots.release(appId, rewardId);
    await markDone(store, move);
    return null;
  }
  // A cancellation that found the reward put in a payout meanwhile (setStatusFrom refuses it): it never happened.
  // Its journal entry goes, so the payout can still move the reward out of APPROVED (to PAID).
  if (!moved && from !== 'NEW' && to === 'CANCELLED' && reward.status === from && reward.payoutId) {
    await store.moves.discard(move);
    return null;
  }
  // Not where this move leads nor beyond: another writer moved it (only possible beside a replica without
  // the journal, during a rolling upgrade). The move is void; writing its effects would count it twice.
  if (!canReach(to, reward.status)) {
    await markDone(store, move);
    return null;
  }
  if (await store.moves.countsTotals(move)) {
    await store.totals.add(appId, reward.campaignId, totalsIncrements(reward, from === 'NEW' ? null : from, to));
  }
  if (to === 'CANCELLED' && reward.side === 'REFERRER') await store.slots.release(appId, rewardId);
  await markDone(store, move, eventsOf(move, reward));
  return reward;
}

/** The move is finished (with its events), once; counted by the status it reached. */
export async function markDone(store: RewardStore, move: RewardMoveDoc, events: DomainEvent[] = []): Promise<void> {
  if (await store.moves.done(move, events)) rewardsMoved.inc({ status: move.to });
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

/**
 * Finishes moves whose process died before writing all they owe, oldest
 * first; one that fails is reported and the rest still go. Returns how
 * many were looked at.
 */
export async function finishOpenMoves(
  store: RewardStore,
  olderThanMs: number,
  onError: (err: unknown, move: RewardMoveDoc) => void,
  batchSize = 100,
): Promise<number> {
  const open = await store.moves.open(olderThanMs, batchSize);
  for (const move of open) await finishMove(store, move).catch((err: unknown) => onError(err, move));
  return open.length;
}
