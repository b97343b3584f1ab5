import { currencyDigits } from '@ris/contracts';
import type { RewardDoc } from '../rewards/reward.model';
import type { ReversalEffect } from './reward-reversal.model';

/** What a reversal asks of a sale's rewards (ReverseRewardsRequest). */
export interface SaleReversal {
  /** The sale is fully reversed: every reward of it is taken back. */
  full: boolean;
  /** The part of the sale still standing, 0 to 1 (after this reversal and those before). */
  remainingShare: number;
}

/** `value` rounded to the currency's smallest unit (the cent; a whole yen), half away from zero. */
export function toMinorUnit(value: number, currency: string): number {
  const factor = 10 ** currencyDigits(currency);
  // The epsilon absorbs binary noise (10 × 0.6 = 5.999…): shares are ratios of decimal amounts.
  return (Math.sign(value) * Math.round(Math.abs(value) * factor + 1e-7)) / factor;
}

/**
 * The value a reward may keep after a reversal of its sale (product
 * decisions §3.10): nothing after a full reversal; a share-of-sale reward
 * the standing share of what it earned (so two partial refunds of 30 % and
 * 20 % leave 50 %, whatever their order); a fixed reward all of it (null:
 * a fixed reward pays for the sale having happened, not for its size).
 */
export function valueToKeep(reward: Pick<RewardDoc, 'amount' | 'earnedAmount' | 'shareOfSale' | 'currency'>, reversal: SaleReversal): number | null {
  if (reversal.full || reversal.remainingShare <= 0) return 0;
  if (!reward.shareOfSale) return null;
  const share = Math.min(1, reversal.remainingShare);
  return toMinorUnit((reward.earnedAmount ?? reward.amount) * share, reward.currency ?? 'USD');
}

/** What applying a reversal to a reward in its present state does. */
export interface ReversalStep {
  effect: ReversalEffect;
  /** The reward's value to its owner before and after. */
  from: number;
  to: number;
  /** The part owed back, for a reward paid already. */
  clawback: number;
  /** The reward's amount after (a paid one keeps its own: it was paid). */
  amount: number;
}

/**
 * The step a reversal that lets the reward keep `keep` takes on it now:
 * a reward not paid out is reduced or cancelled; a paid one, or one in a
 * payout (PENDING: finance may be sending it), cannot be taken back, so
 * what it should no longer be worth is owed (a clawback); a cancelled one
 * is left. Reversals only ever take value away: a later one never gives
 * back what an earlier one took. A reward's worth is its amount less what
 * it owes back already: one clawed back in a payout that then failed is
 * payable again in full with its clawback owed beside it, so a reduction
 * keeps that clawback in its amount (amount = worth kept + clawed back).
 */
export function reversalStep(reward: Pick<RewardDoc, 'status' | 'amount' | 'clawedBack' | 'currency' | 'payoutId'>, keep: number | null): ReversalStep {
  const currency = reward.currency ?? 'USD';
  const owedAlready = reward.clawedBack ?? 0;
  const worth = toMinorUnit(reward.amount - owedAlready, currency);
  const unchanged: ReversalStep = { effect: 'UNCHANGED', from: worth, to: worth, clawback: 0, amount: reward.amount };
  if (reward.status === 'CANCELLED') return { effect: 'UNCHANGED', from: 0, to: 0, clawback: 0, amount: reward.amount };
  if (reward.status === 'PAID' || reward.payoutId) {
    const owed = keep === null ? 0 : toMinorUnit(worth - Math.max(0, keep), currency);
    return owed > 0 ? { effect: 'CLAWBACK', from: worth, to: toMinorUnit(worth - owed, currency), clawback: owed, amount: reward.amount } : unchanged;
  }
  if (keep === null || keep >= worth) return unchanged;
  const kept = Math.max(0, keep);
  if (kept === 0 && owedAlready === 0) return { effect: 'CANCELLED', from: worth, to: 0, clawback: 0, amount: 0 };
  return { effect: 'REDUCED', from: worth, to: kept, clawback: 0, amount: toMinorUnit(kept + owedAlready, currency) };
}
