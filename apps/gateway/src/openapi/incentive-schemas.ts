import { dateTime, id } from './common-schemas';
import { MAX_AMOUNT, wholeAmount } from './number-fields';
import { z } from './zod';

/** Keys of actions, badges and milestones (the service uses them as field names). */
export const definitionKey = (description: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be 1 to 100 letters, digits, "_" or "-"')
    .openapi({ description, example: 'daily_login', minLength: 1, maxLength: 100 });

export const userId = (description = 'Your user id') => id(description);

/** An IANA time zone name; the incentive service checks the runtime knows it (422 TIME_ZONE_UNKNOWN otherwise). */
export const timeZone = (description: string) =>
  z.string().min(1).max(64).openapi({ description: `${description}. An IANA time zone name (one the service does not know: 422 TIME_ZONE_UNKNOWN)`, example: 'Europe/Paris' });

/** Coins, XP, tokens, thresholds: whole numbers, so every balance is exact. */
export const amount = wholeAmount().openapi({ description: `A whole number from 0 to ${MAX_AMOUNT}` });

/**
 * XP as a request sends it: an amount. The leaderboard ranks every XP a
 * user can hold (up to 2^53 − 1) exactly, equal XP to the millisecond
 * (apps/incentive-service/src/leaderboard/score-encoding.ts); a user's XP stops there.
 */
export const xpAmount = amount.openapi({
  description:
    `XP: a whole number from 0 to ${MAX_AMOUNT}. A user's XP stops at 2^53 − 1, the most the leaderboard ranks exactly ` +
    '(equal XP to the millisecond): an event or milestone that would pass it credits only the XP that fits.',
});

/** A signed whole amount (a manual adjustment's coins, XP or tokens): −10^9 to 10^9. */
export const signedAmount = (description: string) =>
  z
    .number()
    .int('must be a whole number')
    .min(-MAX_AMOUNT, `must be at least -${MAX_AMOUNT}`)
    .max(MAX_AMOUNT, `must be at most ${MAX_AMOUNT}`)
    .openapi({ description });

export const isoQuery = (description: string) =>
  dateTime(description)
    .transform((v) => new Date(v))
    .optional()
    .openapi({ type: 'string', format: 'date-time', description });

