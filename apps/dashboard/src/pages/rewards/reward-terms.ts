import type { Reward } from '../../api/types';
import { formatDate, formatMoney } from '../../ui/format';

/**
 * What a reward says of its holding period, its purchase and its reversals
 * (docs/api.md, "Rewards"). Optional here: a gateway of an earlier release
 * answers without them, and a reward without them reads as never held nor
 * reversed.
 */
export interface RewardTermsFields {
  /** When a reward held for its campaign's holding period becomes payable; null: never held so. */
  availableAt?: string | null;
  /** Value reversals took back: a reduction, a cancellation, a clawback of a paid reward. */
  reversedAmount?: number;
  /** The amount it was created with (amount is less after a reduction). */
  earnedAmount?: number;
  /** The later purchase of the conversion that earned it; null: the conversion itself. */
  purchaseId?: string | null;
  /** REFUND, CHARGEBACK, CANCELLATION or OTHER: why a reversal took it back in whole or in part. */
  reversalReason?: string | null;
  /** A CASH reward's payout (PENDING or PAID) that holds it; null: in none. */
  payoutId?: string | null;
}

/** The part of a reward its state in words needs. */
export type RewardView = Pick<Reward, 'status' | 'amount' | 'currency'> & RewardTermsFields;

/** A reward with what the API may say of its terms. */
export type RewardWithTerms = Reward & RewardTermsFields;

/** When a held reward becomes payable: the end of its holding period, while it is PENDING and that end lies ahead. */
export function heldUntil(reward: RewardView, now: number = Date.now()): string | null {
  if (reward.status !== 'PENDING' || !reward.availableAt) return null;
  const at = Date.parse(reward.availableAt);
  return Number.isFinite(at) && at > now ? reward.availableAt : null;
}

export interface RewardReversal {
  /** Taken back whole (cancelled, or a paid one owed back in full), rather than reduced. */
  full: boolean;
  /** What was taken back, in the reward's currency. */
  taken: number;
  reason: string | null;
}

/** What reversals of its sale did to a reward; null when none touched it. */
export function reversalOf(reward: RewardView): RewardReversal | null {
  const taken = reward.reversedAmount ?? 0;
  const reason = reward.reversalReason ?? null;
  if (taken <= 0 && !reason) return null;
  // A reduced reward's amount is what it kept; a paid one keeps its amount (what it no longer earns is owed back).
  const earned = reward.earnedAmount ?? (reward.status === 'PAID' ? reward.amount : reward.amount + taken);
  return { full: reward.status === 'CANCELLED' || taken >= earned, taken, reason };
}

const REASONS: Record<string, string> = { REFUND: 'refund', CHARGEBACK: 'chargeback', CANCELLATION: 'cancellation' };

/** `reversed (refund)`, `reduced by $2.50 (chargeback)`, a paid one's `reversed (refund), $10.00 owed back`; null when not reversed. */
export function reversalText(reward: RewardView): string | null {
  const reversal = reversalOf(reward);
  if (!reversal) return null;
  const reason = reversal.reason ? REASONS[reversal.reason] : undefined;
  const why = reason ? ` (${reason})` : '';
  const taken = formatMoney(reversal.taken, reward.currency);
  // A paid reward cannot be taken back: what it no longer earns is owed.
  const paid = reward.status === 'PAID' && reversal.taken > 0;
  return reversal.full ? `reversed${why}${paid ? `, ${taken} owed back` : ''}` : `reduced by ${taken}${why}${paid ? ', owed back' : ''}`;
}

/** What a reward's status alone does not say, in words: `held until 2026-12-12`, `reversed (refund)`, `reduced by €2.50`, `in a payout`. */
export function rewardNotes(reward: RewardView, now: number = Date.now()): string[] {
  const held = heldUntil(reward, now);
  // An APPROVED CASH reward in a payout waits for it to be marked paid (a PAID one's payout was).
  const inPayout = reward.status === 'APPROVED' && reward.payoutId ? 'in a payout' : null;
  return [held && `held until ${formatDate(held)}`, reversalText(reward), inPayout].filter((note): note is string => Boolean(note));
}
