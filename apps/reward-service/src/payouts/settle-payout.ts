import pLimit from 'p-limit';
import { crashPoint } from '@ris/config';
import { conflict, invalid, notFound } from '@ris/domain-errors';
import { moveRewardTo } from '../moves/move-reward';
import type { RewardStore } from '../rewards/reward-store';
import { releaseItems } from './create-payouts';
import { payoutFailed, payoutPaid } from './payout-events';
import type { PayoutDoc } from './payout.model';

const MOVES_AT_ONCE = 16;

/** A payout as the API knows it (a CREATING or ABANDONED one does not exist for anyone yet). */
export async function listedPayout(store: RewardStore, appId: string, payoutId: string): Promise<PayoutDoc> {
  const payout = await store.payouts.listed(appId, payoutId);
  if (!payout) throw notFound('Payout', { payoutId });
  return payout;
}

const invalidTransition = (payout: PayoutDoc, to: string) =>
  conflict('INVALID_TRANSITION', `Payout ${payout._id} is ${payout.status}; only a PENDING payout can be marked ${to}.`, { status: payout.status });

/**
 * PENDING → PAID with the transfer's reference (product decisions §3.12):
 * its rewards become PAID (each through its journaled move: totals and
 * event once) and its clawbacks settled. Marking it paid again with the
 * same reference answers it as it is (a retry); anything else not from
 * PENDING is 409 INVALID_TRANSITION.
 */
export async function markPayoutPaid(store: RewardStore, appId: string, payoutId: string, externalReference: string): Promise<PayoutDoc> {
  if (!externalReference.trim()) throw invalid('externalReference is required');
  return store.payouts.exclusive(appId, async () => {
    const payout = await listedPayout(store, appId, payoutId);
    if (payout.status === 'PAID' && payout.externalReference === externalReference) return finishSettlement(store, payout);
    if (payout.status !== 'PENDING') throw invalidTransition(payout, 'PAID');
    const at = new Date();
    const paid = await store.payouts.close(appId, payoutId, 'PAID', { externalReference, paidAt: at }, payoutPaid);
    if (!paid) throw invalidTransition((await store.payouts.findById(appId, payoutId)) ?? payout, 'PAID');
    return finishSettlement(store, paid);
  });
}

/**
 * PENDING → FAILED with why: its rewards and clawbacks leave it, payable
 * and owed again (a new POST /payouts includes them). Again with the same
 * reason answers it as it is; anything else not from PENDING is 409.
 */
export async function markPayoutFailed(store: RewardStore, appId: string, payoutId: string, reason: string): Promise<PayoutDoc> {
  if (!reason.trim()) throw invalid('reason is required');
  return store.payouts.exclusive(appId, async () => {
    const payout = await listedPayout(store, appId, payoutId);
    if (payout.status === 'FAILED' && payout.failureReason === reason) return finishSettlement(store, payout);
    if (payout.status !== 'PENDING') throw invalidTransition(payout, 'FAILED');
    const failed = await store.payouts.close(appId, payoutId, 'FAILED', { failureReason: reason, failedAt: new Date() }, payoutFailed);
    if (!failed) throw invalidTransition((await store.payouts.findById(appId, payoutId)) ?? payout, 'FAILED');
    return finishSettlement(store, failed);
  });
}

/**
 * Writes what a PAID or FAILED payout owes its rewards and clawbacks, each
 * step safe to repeat (the request, its retry and the recovery pass may
 * all run it), then marks it settled.
 */
export async function finishSettlement(store: RewardStore, payout: PayoutDoc): Promise<PayoutDoc> {
  if (payout.settled) return payout;
  crashPoint('payout.settling');
  if (payout.status === 'PAID') {
    const at = payout.paidAt ?? payout.updatedAt;
    const moves = pLimit(MOVES_AT_ONCE);
    const rewards = await store.rewards.byIds(payout.appId, payout.rewardIds);
    await Promise.all(
      rewards.filter((r) => r.payoutId === payout._id && r.status === 'APPROVED').map((r) => moves(() => moveRewardTo(store, r, 'PAID', { paidAt: at, redeemedAt: at }))),
    );
    await store.reversals.settle(payout.appId, payout.userId, payout.clawbackIds, payout._id, at);
  } else if (payout.status === 'FAILED') {
    await releaseItems(store, payout);
  }
  return store.payouts.markSettled(payout);
}
