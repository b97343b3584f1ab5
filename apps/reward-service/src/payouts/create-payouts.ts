import pLimit from 'p-limit';
import { crashPoint } from '@ris/config';
import { DEFAULT_CURRENCY } from '@ris/contracts';
import { invalid } from '@ris/domain-errors';
import { newId } from '@ris/mongo';
import type { RewardStore } from '../rewards/reward-store';
import { payoutCreated } from './payout-events';
import type { PayoutDoc } from './payout.model';
import { figures, planPayouts, type PayoutDueFigures, type PayoutItem } from './payout-plan';

/** POST /payouts and GET /payouts/due: which referrers, currencies and minimum. */
export interface PayoutRequest {
  minimumAmount?: number;
  currency?: string;
  userId?: string;
  /** From the request's Idempotency-Key: a retry answers the payouts its operation made. */
  operationKey?: string;
}

/** Referrers whose payouts are made at once (their items are disjoint). */
const REFERRERS_AT_ONCE = 8;

function check(req: PayoutRequest): void {
  if (req.minimumAmount !== undefined && !(Number.isFinite(req.minimumAmount) && req.minimumAmount >= 0)) throw invalid('minimumAmount must be 0 or more');
  if (req.currency !== undefined && !/^[A-Z]{3}$/.test(req.currency)) throw invalid('currency must be an ISO 4217 code (3 capital letters)');
}

/** What each referrer is due now (nothing is reserved: GET /payouts/due, and the first step of POST /payouts). */
export async function payoutsDue(store: RewardStore, appId: string, req: PayoutRequest): Promise<PayoutDueFigures[]> {
  check(req);
  const filter = { currency: req.currency, userId: req.userId };
  const rewards: PayoutItem[] = [];
  const clawbacks: PayoutItem[] = [];
  await Promise.all([
    (async () => {
      for await (const r of store.rewards.payable(appId, filter)) rewards.push({ id: r._id, userId: r.userId, currency: r.currency ?? DEFAULT_CURRENCY, amount: r.amount });
    })(),
    (async () => {
      for await (const c of store.reversals.owed(appId, filter)) clawbacks.push({ id: c._id, userId: c.userId, currency: c.currency, amount: c.clawback });
    })(),
  ]);
  return planPayouts(rewards, clawbacks, req.minimumAmount ?? 0);
}

/**
 * POST /payouts (product decisions §3.12): one payout per referrer and
 * currency whose payable CASH rewards less owed clawbacks reach the
 * minimum. The payouts of an app are made one operation at a time in a
 * process; each payout is stored CREATING, claims its rewards and
 * clawbacks (a conditional write on each: a reward is in one payout at
 * most, whatever runs at once), and opens (PENDING, with its event) with
 * what it won, or is forgotten and gives back what it won when that is no
 * longer enough. A process killed meanwhile leaves a CREATING payout that
 * the recovery pass undoes (undoPayout): nothing is in two payouts, and
 * nothing is lost. Answers the payouts made, oldest first; a retry of the
 * same operation (its key) answers those it made too.
 */
export async function createPayouts(store: RewardStore, appId: string, req: PayoutRequest): Promise<PayoutDoc[]> {
  check(req);
  return store.payouts.exclusive(appId, async () => {
    const due = (await payoutsDue(store, appId, req)).filter((d) => d.payable);
    const atOnce = pLimit(REFERRERS_AT_ONCE);
    const made = (await Promise.all(due.map((d) => atOnce(() => makePayout(store, appId, d, req))))).filter((p): p is PayoutDoc => p !== null);
    if (!req.operationKey) return made.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a._id < b._id ? -1 : 1));
    return store.payouts.madeBy(appId, req.operationKey);
  });
}

async function makePayout(store: RewardStore, appId: string, due: PayoutDueFigures, req: PayoutRequest): Promise<PayoutDoc | null> {
  const at = new Date();
  const payout: PayoutDoc = {
    _id: newId('po'),
    appId,
    userId: due.userId,
    currency: due.currency,
    amount: due.amount,
    rewardsAmount: due.rewardsAmount,
    clawbacksAmount: due.clawbacksAmount,
    rewardIds: due.rewards.map((r) => r.id),
    clawbackIds: due.clawbacks.map((c) => c.id),
    status: 'CREATING',
    externalReference: null,
    failureReason: null,
    operationKey: req.operationKey || null,
    settled: false,
    createdAt: at,
    updatedAt: at,
    paidAt: null,
    failedAt: null,
  };
  await store.payouts.begin(payout);
  // One statement each for the referrer's rewards and clawbacks; what was won is read back with its amounts now.
  const [rewards, clawbacks] = await Promise.all([
    store.rewards.claimForPayout(appId, due.userId, payout.rewardIds, payout._id),
    store.reversals.claimForPayout(appId, due.userId, payout.clawbackIds, payout._id),
  ]);
  crashPoint('payout.claimed');
  const won = figures(
    due.userId,
    due.currency,
    rewards.map((r) => ({ id: r._id, userId: r.userId, currency: due.currency, amount: r.amount })),
    clawbacks.map((c) => ({ id: c._id, userId: c.userId, currency: due.currency, amount: c.clawback })),
    req.minimumAmount ?? 0,
  );
  const opened = won.payable
    ? await store.payouts.open(
        payout,
        { amount: won.amount, rewardsAmount: won.rewardsAmount, clawbacksAmount: won.clawbacksAmount, rewardIds: won.rewards.map((r) => r.id), clawbackIds: won.clawbacks.map((c) => c.id) },
        payoutCreated,
      )
    : null;
  if (opened) return opened;
  // Raced (a reversal, a cancellation, another replica's payout) below what is payable, or given up by the recovery pass: undone.
  await undoPayout(store, payout);
  return null;
}

/**
 * A payout that was not opened: ABANDONED first (so it can no longer be
 * opened), then what it claimed given back, then forgotten. Each step safe
 * to repeat: the recovery pass finishes one whose process died. One that
 * was opened meanwhile is left alone.
 */
export async function undoPayout(store: RewardStore, payout: PayoutDoc): Promise<void> {
  if (!(await store.payouts.abandon(payout.appId, payout._id))) return;
  await releaseItems(store, payout);
  await store.payouts.forget(payout.appId, payout._id);
}

/** The payout's rewards and clawbacks out of it (each only if it is in it): payable and owed again. */
export async function releaseItems(store: RewardStore, payout: PayoutDoc): Promise<void> {
  await Promise.all([
    store.rewards.releaseFromPayout(payout.appId, payout.userId, payout.rewardIds, payout._id),
    store.reversals.releaseFromPayout(payout.appId, payout.userId, payout.clawbackIds, payout._id),
  ]);
}
