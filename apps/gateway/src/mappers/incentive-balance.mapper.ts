import { LedgerCause, LedgerReason, type Balance as BalanceMessage, type LedgerEntry, type Level as LevelMessage, type NextLevel } from '@ris/contracts';
import { timestamp } from '../openapi/common-schemas';
import { z } from '../openapi/zod';
import { BoostRef } from './incentive-boost.mapper';
import { entity, from, publicEnum, time } from './entity';
import { isoTime } from './proto-json';

export const LedgerReasons = publicEnum(LedgerReason);
export const LedgerCauses = publicEnum(LedgerCause);

const NextLevelShape = entity<NextLevel>()(null, { level: z.number().int(), name: z.string(), xpThreshold: z.number(), xpRemaining: z.number() });

export const Balance = entity<BalanceMessage>()('IncentiveBalance', {
  userId: z.string(),
  coins: z.number(),
  tokens: z.number(),
  xp: z.number(),
  level: z.number().int().openapi({ description: '0 below the first level' }),
  levelName: z.string().nullable(),
  nextLevel: from(NextLevelShape.schema.nullable().openapi({ description: 'null at the highest level' }), (b: BalanceMessage) =>
    b.nextLevel ? NextLevelShape.json(b.nextLevel) : null,
  ),
  progress: z.number().min(0).max(1).openapi({ description: "0..1 from the current level's threshold to the next one's" }),
  perks: z.array(z.string()).openapi({ description: 'Perks of every level reached' }),
  coinsEarned: z.number().openapi({ description: 'Coins earned from rewards (spending does not lower it)' }),
  rewardedEvents: z.number().int(),
  referrals: z.number().int().openapi({ description: 'Referees who converted (rewarded REFERRAL_REFEREE_ACTION events)' }),
  updatedAt: time(timestamp.nullable()),
  pendingCoins: z.number().openapi({ description: 'Credited by events of actions with pendingDays, not spendable yet (not in coins, nor on the leaderboard)' }),
  pendingTokens: z.number(),
  expiring: from(
    z
      .array(z.object({ currency: z.enum(['COINS', 'TOKENS']), amount: z.number(), expiresAt: timestamp }))
      .openapi({ description: 'The next 3 expiry dates of coins and tokens, soonest first (the app\u2019s coinExpiryDays, tokenExpiryDays)' }),
    (b: BalanceMessage) => b.expiring.map((e) => ({ currency: e.currency === 'TOKENS' ? ('TOKENS' as const) : ('COINS' as const), amount: e.amount, expiresAt: isoTime(e.expiresAt) ?? '' })),
  ),
  debtCoins: z.number().openapi({ description: 'Owed after an event reversal took back more than the balance held; the next credits repay it' }),
  debtTokens: z.number(),
});

export const Transaction = entity<LedgerEntry>()('IncentiveTransaction', {
  id: z.string(),
  seq: z.number().int().openapi({ description: "Position in the user's ledger: 1, 2, 3, … without gaps" }),
  reason: LedgerReasons.field((s) =>
    s.openapi({
      description:
        'The kind of movement: ACTION_REWARD, LEVEL_REWARD, MILESTONE_REWARD, DEBIT (a redemption), CREDIT (a refund), SCORE_SET (POST /incentives/leaderboard), ADJUSTMENT (POST /incentives/balances/{userId}/adjustments), ' +
        'REVERSAL (a referral credit or an event taken back), STREAK_REWARD (a streak reached a length that pays), EXPIRY (coins or tokens lapsed), ' +
        'PENDING_RELEASE (a pending credit became available)',
    }),
  ),
  cause: LedgerCauses.field((s) =>
    s.openapi({
      description:
        "What moved the balance: EVENT (an action's reward), LEVEL or MILESTONE (their rewards), CATALOG_REDEMPTION or MARKETPLACE_REDEMPTION (the debit of a redemption), " +
        'REFUND (a redemption cancelled, or undone after its debit, given back), ADJUSTMENT (a manual adjustment), SCORE_SET (a recorded score), ' +
        'CONVERSION_REVERSAL (a referral credit taken back after its conversion was refunded or charged back in full), STREAK (a streak reward), ' +
        'EXPIRY, PENDING_RELEASE, EVENT_REVERSAL (POST /incentives/events/{eventId}/reverse). Always set',
    }),
  ),
  coins: from(z.number().openapi({ description: 'Signed change' }), (t: LedgerEntry) => t.amounts?.coins ?? 0),
  xp: from(z.number(), (t: LedgerEntry) => t.amounts?.xp ?? 0),
  tokens: from(z.number(), (t: LedgerEntry) => t.amounts?.tokens ?? 0),
  balanceAfter: from(z.object({ coins: z.number(), xp: z.number(), tokens: z.number() }), (t: LedgerEntry) => ({
    coins: t.balanceAfter?.coins ?? 0,
    xp: t.balanceAfter?.xp ?? 0,
    tokens: t.balanceAfter?.tokens ?? 0,
  })),
  sourceId: z.string().openapi({ description: 'Event id, level number, milestone key or operation id' }),
  actionKey: z.string().nullable(),
  description: z.string().nullable(),
  unrecovered: from(
    z
      .object({ coins: z.number(), xp: z.number(), tokens: z.number() })
      .nullable()
      .openapi({ description: 'REVERSAL only: what the reversed credit gave that the balance no longer held (spent), so was not taken back; null on other entries' }),
    (t: LedgerEntry) => (t.unrecovered ? { coins: t.unrecovered.coins, xp: t.unrecovered.xp, tokens: t.unrecovered.tokens } : null),
  ),
  reversal: from(
    z
      .object({ conversionId: z.string(), reversalId: z.string(), reason: z.string() })
      .nullable()
      .openapi({ description: 'REVERSAL only: the conversion reversed, the reversal (GET /conversions/{conversionId}/reversals) and its reason; null on other entries' }),
    (t: LedgerEntry) => (t.reversal ? { conversionId: t.reversal.conversionId, reversalId: t.reversal.id, reason: t.reversal.reason } : null),
  ),
  boost: BoostRef.field(),
  pendingCoins: z.number().openapi({ description: 'Signed change of the pending coins: a pending credit (+), its release or cancellation (−); 0 on other entries' }),
  pendingTokens: z.number(),
  debt: from(
    z
      .object({ coins: z.number(), tokens: z.number() })
      .nullable()
      .openapi({ description: 'An event reversal only: what the balance no longer held, now owed; null on other entries' }),
    (t: LedgerEntry) => (t.debt ? { coins: t.debt.coins, tokens: t.debt.tokens } : null),
  ),
  debtRepaid: from(
    z
      .object({ coins: z.number(), tokens: z.number() })
      .nullable()
      .openapi({ description: 'A credit while in debt: the part of it that repaid the debt (coins and tokens hold the rest); null otherwise' }),
    (t: LedgerEntry) => (t.debtRepaid ? { coins: t.debtRepaid.coins, tokens: t.debtRepaid.tokens } : null),
  ),
  streak: from(
    z
      .object({ key: z.string(), length: z.number().int() })
      .nullable()
      .openapi({ description: 'STREAK_REWARD only: the streak and the length it reached; null on other entries' }),
    (t: LedgerEntry) => (t.streakKey ? { key: t.streakKey, length: t.streakLength ?? 0 } : null),
  ),
  createdAt: time(timestamp),
});

export const Level = entity<LevelMessage>()('IncentiveLevel', {
  level: z.number().int(),
  name: z.string(),
  xpThreshold: z.number(),
  rewards: from(z.object({ coins: z.number(), badgeKey: z.string().nullable(), perks: z.array(z.string()) }), (l: LevelMessage) => ({
    coins: l.rewards?.coins ?? 0,
    badgeKey: l.rewards?.badgeKey ?? null,
    perks: l.rewards?.perks ?? [],
  })),
});

export const balanceJson = Balance.json;
export const transactionJson = Transaction.json;
export const levelJson = Level.json;
