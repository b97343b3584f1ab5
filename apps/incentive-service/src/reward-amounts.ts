import { invalidArgument } from '@ris/rpc';

/** Coins, XP and tokens: whole numbers, so sums over the ledger are exact. */
export interface Amounts {
  coins: number;
  xp: number;
  tokens: number;
}

export const ZERO: Amounts = Object.freeze({ coins: 0, xp: 0, tokens: 0 });

export const isZero = (a: Amounts) => a.coins === 0 && a.xp === 0 && a.tokens === 0;

/** A reward or cost: a whole number from 0 up to 2^53 − 1 (exact as a double). */
export function checkAmount(value: number, field: string): number {
  if (!Number.isSafeInteger(value) || value < 0) throw invalidArgument(`${field} must be a whole number of 0 or more`, { field });
  return value;
}

export function checkAmounts(a: Amounts, prefix = ''): Amounts {
  return {
    coins: checkAmount(a.coins, `${prefix}coins`),
    xp: checkAmount(a.xp, `${prefix}xp`),
    tokens: checkAmount(a.tokens, `${prefix}tokens`),
  };
}
