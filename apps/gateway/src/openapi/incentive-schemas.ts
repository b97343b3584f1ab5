import { id } from './common-schemas';
import { z } from './zod';

/** Keys of actions, badges and milestones (the service uses them as field names). */
export const definitionKey = (description: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be 1 to 100 letters, digits, "_" or "-"')
    .openapi({ description, example: 'daily_login' });

export const userId = (description = 'Your user id') => id(description);

/** 2^53 − 1: the largest whole number a double (JSON, the protobuf amounts, a Redis score) holds exactly. */
export const MAX_AMOUNT = Number.MAX_SAFE_INTEGER;
const tooBig = `must be at most ${MAX_AMOUNT} (2^53 − 1)`;

/** Coins, XP, tokens, thresholds: whole numbers up to MAX_AMOUNT, so every balance is exact. */
export const amount = z
  .number()
  // zod's int() refuses whole numbers past 2^53 − 1 too: say that, not "not whole".
  .int({ error: (issue) => (issue.code === 'too_big' ? tooBig : issue.code === 'too_small' ? 'must not be negative' : 'must be a whole number') })
  .min(0, 'must not be negative')
  .max(MAX_AMOUNT, tooBig)
  .openapi({ description: `A whole number from 0 to ${MAX_AMOUNT} (2^53 − 1)` });

/**
 * The largest XP anything may hold: an amount, a threshold, a score, a
 * balance. The leaderboard ranks every XP up to it exactly, equal XP to the
 * millisecond (apps/incentive-service/src/score-encoding.ts).
 */
export const MAX_XP = MAX_AMOUNT;

/** XP as a request sends it: an amount, stated as XP's bound. */
export const xpAmount = amount.openapi({
  description:
    `XP: a whole number from 0 to ${MAX_XP} (2^53 − 1), the most the leaderboard ranks exactly (equal XP to the millisecond). ` +
    "A user's XP stops there: an event or milestone that would pass it credits only the XP that fits.",
});

export const Amounts = z.object({ coins: z.number(), xp: z.number(), tokens: z.number() }).openapi('Amounts');

export const BalanceSummary = z
  .object({ coins: z.number(), xp: z.number(), tokens: z.number(), level: z.number().int() })
  .openapi('BalanceSummary');

export const ACTION_TYPES = ['STANDARD', 'REFERRAL_CODE_GENERATE', 'REFERRAL_CLICK', 'REFERRAL_REFEREE_ACTION'] as const;
export const REFUSALS = ['COOLDOWN', 'MAX_REPEATS', 'ACTION_DISABLED'] as const;
export const MILESTONE_METRICS = ['XP', 'COINS_EARNED', 'EVENTS', 'REFERRALS'] as const;
export const LEADERBOARD_PERIODS = ['ALL_TIME', 'DAILY', 'WEEKLY', 'MONTHLY'] as const;
export const BADGE_SOURCES = ['MANUAL', 'LEVEL', 'MILESTONE'] as const;

export const BadgeRef = z.object({ key: z.string(), name: z.string() }).openapi('BadgeRef');
export const MilestoneRef = z
  .object({ key: z.string(), name: z.string(), metric: z.enum(MILESTONE_METRICS), threshold: z.number() })
  .openapi('MilestoneRef');

export const isoQuery = (description: string) =>
  z
    .string()
    .datetime({ offset: true, message: 'must be an ISO 8601 timestamp' })
    .transform((v) => new Date(v))
    .optional()
    .openapi({ type: 'string', format: 'date-time', description });

