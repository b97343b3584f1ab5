import { invalid } from '@ris/domain-errors';
import { MAX_XP } from '../leaderboard/score-encoding';

/** Coins, XP and tokens: whole numbers, so sums over the ledger are exact. */
export interface Amounts {
  coins: number;
  xp: number;
  tokens: number;
}

/** A reward or cost: a whole number from 0 up to 2^53 − 1 (exact as a double). */
export function checkAmount(value: number, field: string): number {
  if (!Number.isSafeInteger(value) || value < 0) throw invalid(`${field} must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}`, { field });
  return value;
}

/** An XP amount, threshold or score: a whole number from 0 up to MAX_XP, the most the leaderboard ranks exactly. */
export function checkXp(value: number, field: string): number {
  if (!Number.isSafeInteger(value) || value < 0 || value > MAX_XP) {
    throw invalid(`${field} must be a whole number from 0 to ${MAX_XP} (2^53 − 1)`, { field, max: MAX_XP });
  }
  return value;
}

/**
 * The part of an XP reward that a balance at `currentXp` can take: a
 * user's XP stops at MAX_XP (a sum of amounts could pass it, no single
 * amount can). The ledger entry records what was credited.
 */
export function xpThatFits(currentXp: number, rewardXp: number): number {
  return Math.max(0, Math.min(rewardXp, MAX_XP - currentXp));
}
