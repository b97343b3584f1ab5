import type { Payout, PayoutDue, PayoutStatus } from '../../api/types';
import { countOf, formatMoney } from '../../ui/format';

export const PAYOUT_STATUSES: PayoutStatus[] = ['PENDING', 'PAID', 'FAILED'];

/**
 * What a payout's change moves, under the app's query keys: the due list
 * and the payouts (`['payouts', …]`), the payout's drawer, the user's view
 * (their payouts and clawbacks) and the rewards it pays.
 */
export const PAYOUT_QUERIES: ReadonlyArray<readonly string[]> = [['payouts'], ['payout'], ['user'], ['rewards'], ['reward']];

/** What a payout is made of: `$40.00 of 3 rewards − $5.00 owed back (1 clawback)`. */
export function payoutMakeup(p: Pick<Payout, 'currency' | 'rewardsAmount' | 'rewardCount' | 'clawbacksAmount' | 'clawbackCount'>): string {
  const rewards = `${formatMoney(p.rewardsAmount, p.currency)} of ${countOf(p.rewardCount, 'rewards')}`;
  return p.clawbackCount > 0 ? `${rewards} − ${formatMoney(p.clawbacksAmount, p.currency)} owed back (${countOf(p.clawbackCount, 'clawbacks')})` : rewards;
}

/** What a payout's status alone does not say: the transfer's reference once paid, why it failed. */
export function payoutNote(p: Pick<Payout, 'status' | 'externalReference' | 'failureReason'>): string | null {
  if (p.status === 'PAID' && p.externalReference) return `ref. ${p.externalReference}`;
  if (p.status === 'FAILED' && p.failureReason) return p.failureReason;
  return null;
}

/** Why a referrer listed as due would (not) be paid by POST /payouts with the same minimum. */
export function dueNote(d: Pick<PayoutDue, 'payable' | 'amount'>): string {
  if (d.payable) return 'payable';
  return d.amount <= 0 ? 'owes more than earned' : 'below the minimum';
}

/**
 * The minimum amount of the URL (`?minimumAmount=`) as the API takes it: a
 * number of 0 or more; anything else is no minimum.
 */
export function minimumOf(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}
