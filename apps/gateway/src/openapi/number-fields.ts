import { z } from './zod';

// Upper bounds of the numbers the public API accepts, stated in the document
// (maximum) and enforced by the same schemas.

/**
 * Largest amount, cost, coin/XP/token count or threshold one request may
 * carry. Balances, totals and ledgers add many of them up; at most 10^9
 * each, a sum of up to 9 million of them stays an exact double (below 2^53).
 */
export const MAX_AMOUNT = 1_000_000_000;
/** Largest count (stock, caps, repeats, seconds): a 32-bit signed integer, as the contracts carry them. */
export const MAX_COUNT = 2_147_483_647;
/** Longest span in days (attribution windows, code validity): ten years. */
export const MAX_DAYS = 3650;

/** A money-like amount: 0 to 10^9, decimals allowed. */
export const decimalAmount = () =>
  z.number().min(0, 'must not be negative').max(MAX_AMOUNT, `must be at most ${MAX_AMOUNT}`);

/** A whole amount (coins, XP, tokens, costs, thresholds): 0 to 10^9. */
export const wholeAmount = () =>
  z.number().int('must be a whole number').min(0, 'must not be negative').max(MAX_AMOUNT, `must be at most ${MAX_AMOUNT}`);

/** A whole count from `min` to 2^31 − 1. */
export const count = (min = 0) =>
  z.number().int('must be a whole number').min(min, `must be at least ${min}`).max(MAX_COUNT, `must be at most ${MAX_COUNT}`);

/** A number of days from 1 to 3650. */
export const days = () => z.number().int('must be a whole number').min(1, 'must be at least 1').max(MAX_DAYS, `must be at most ${MAX_DAYS}`);
