import type { RewardDoc, RewardStatusName } from './reward.model';
import type { RewardStore } from './reward-store';
import { canTransition } from './reward-transitions';

/**
 * Moves a reward out of its current status, at most once per status: the
 * move first records the marker "left <status>" under a unique key, and
 * only the caller that recorded it changes the reward. Of concurrent moves
 * (two redeems; an approval racing a cancellation) exactly one happens,
 * on MongoDB and on FerretDB (whose conditional updates are not atomic).
 * Returns the moved reward, or null when another move got there first.
 */
export async function moveReward(
  store: RewardStore,
  reward: RewardDoc,
  to: RewardStatusName,
  fields: Partial<RewardDoc> = {},
): Promise<RewardDoc | null> {
  const from = reward.status;
  if (!canTransition(from, to)) return null;
  const key = `reward:${reward._id}:left:${from}`;
  if (!(await store.once.first(reward.appId, key, { to }))) {
    await finishInterruptedMove(store, reward, key);
    return null;
  }
  const now = new Date();
  const moved = await store.rewards.findOneAndUpdate(reward.appId, { _id: reward._id }, { $set: { ...fields, status: to, updatedAt: now } });
  if (!moved) return null;
  await store.totals.moved(moved, from, to);
  if (to === 'CANCELLED' && moved.side === 'REFERRER') await store.slots.release(moved.appId, moved._id);
  return moved;
}

/** A mover that recorded its marker and died before changing the reward: the reward takes the marker's status. */
async function finishInterruptedMove(store: RewardStore, reward: RewardDoc, key: string): Promise<void> {
  const marker = await store.once.get(reward.appId, key);
  const to = marker?.data?.to as RewardStatusName | undefined;
  const current = await store.rewards.findOne(reward.appId, { _id: reward._id });
  if (!to || !current || current.status !== reward.status) return;
  if (Date.now() - (marker?.at.getTime() ?? Date.now()) < 5_000) return; // still in flight, most likely
  await store.rewards.updateOne(reward.appId, { _id: reward._id, status: reward.status }, { $set: { status: to, updatedAt: new Date() } });
}
