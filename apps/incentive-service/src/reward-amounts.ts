import { invalidArgument } from '@ris/rpc';

/** Coins, XP and tokens: whole numbers, so sums over the ledger are exact. */
export interface Amounts {
  coins: number;
  xp: number;
  tokens: number;
}

/** A reward or cost: a whole number from 0 up to 2^53 − 1 (exact as a double). */
export function checkAmount(value: number, field: string): number {
  if (!Number.isSafeInteger(value) || value < 0) throw invalidArgument(`${field} must be a whole number of 0 or more`, { field });
  return value;
}
