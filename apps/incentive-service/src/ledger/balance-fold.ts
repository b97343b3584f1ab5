import type { EnumName, LedgerReason as LedgerReasonEnum } from '@ris/contracts';
import type { ActionProgress } from '../actions/action-rules';
import type { LedgerCause } from './ledger-cause';
import type { Amounts } from './reward-amounts';
import { TIMED_PERIODS, periodField, periodKey, retainedPeriodFields } from '../leaderboard/period-keys';

/** ACTION_REWARD, LEVEL_REWARD, MILESTONE_REWARD, DEBIT, CREDIT, SCORE_SET, ADJUSTMENT, REVERSAL: the contract's LedgerReason. */
export type LedgerReason = EnumName<typeof LedgerReasonEnum>;

/** Coins from these count as earned (COINS_EARNED milestones); debits, credits, adjustments and score overrides do not. */
const EARNING_REASONS: ReadonlySet<LedgerReason> = new Set(['ACTION_REWARD', 'LEVEL_REWARD', 'MILESTONE_REWARD', 'STREAK_REWARD', 'PENDING_RELEASE']);

/** Coins or tokens credited together that expire together (lots of one expiry instant merge). */
export interface Lot {
  expiresAt: Date;
  amount: number;
}

/** An event's coins and tokens waiting to become available (the action's pendingDays). */
export interface PendingCredit {
  /** The event's id: its release and its reversal name it. */
  key: string;
  coins: number;
  tokens: number;
  releaseAt: Date;
}

/** Coins and tokens (no XP): a pending credit, a debt, what repaid one. */
export interface CoinsAndTokens {
  coins: number;
  tokens: number;
}

/** The boost that multiplied an event's reward (boosts/boost-choice.ts). */
export interface LedgerBoost {
  id: string;
  name: string;
  multiplier: number;
}

/** The conversion reversal a REVERSAL entry answers (product decisions §7.16). */
export interface LedgerReversal {
  /** The level-1 conversion reversed. */
  conversionId: string;
  /** The reversal's id in the referral service. */
  id: string;
  /** REFUND, CHARGEBACK, CANCELLATION or OTHER, as the referral service sent it. */
  reason: string;
}

/** One balance movement as the ledger records it (signed deltas). */
export interface Movement {
  /** Unique per app: the same key is never applied twice. */
  key: string;
  reason: LedgerReason;
  /** What moved the balance, for whoever reads the ledger (not part of the fold). */
  cause: LedgerCause;
  coins: number;
  xp: number;
  tokens: number;
  /** Event id, level number, milestone key or operation id. */
  sourceId: string;
  actionKey: string | null;
  /** Set for ACTION_REWARD (REFERRAL_REFEREE_ACTION rewards count as referrals) and for the REVERSAL of one. */
  actionType: string | null;
  /** Set for LEVEL_REWARD. */
  level: number | null;
  /** Set for MILESTONE_REWARD. */
  milestoneKey: string | null;
  /** Perks a level grants. */
  perks: string[];
  description: string | null;
  /** The event whose balance change made a level or milestone reward due (not part of the fold). */
  triggeredBy?: string | null;
  /** Set for REVERSAL: what the reversed reward gave that the balance no longer held, so was not taken back. */
  unrecovered?: Amounts | null;
  /** Set for REVERSAL (not part of the fold). */
  reversal?: LedgerReversal | null;
  /** Set for an ACTION_REWARD a boost multiplied (not part of the fold). */
  boost?: LedgerBoost | null;
  /** Set for STREAK_REWARD: the streak and the length it reached (not part of the fold). */
  streakKey?: string | null;
  streakLength?: number | null;
  /** A credit of coins / tokens: when the lot it makes expires (the app's coinExpiryDays, tokenExpiryDays); absent or null: never. */
  coinsExpireAt?: Date | null;
  tokensExpireAt?: Date | null;
  /** Signed change of the pending coins and tokens: a pending credit (+), its release or cancellation (−). */
  pendingCoins?: number;
  pendingTokens?: number;
  /** A pending credit: when it becomes available. */
  pendingUntil?: Date | null;
  /** An event reversal: what the balance no longer held, owed from now on (the next credits repay it). */
  debt?: CoinsAndTokens | null;
  /** A credit while in debt: the part of it that repaid the debt (coins and tokens hold the rest). */
  debtRepaid?: CoinsAndTokens | null;
  createdAt: Date;
}

/** XP earned within one day/week/month and when it last changed (the tie-break). */
export interface PeriodXp {
  xp: number;
  at: Date;
}

/**
 * Everything a balance document holds: a pure fold of the user's ledger
 * entries in order. `seq` is how many entries it includes.
 */
export interface BalanceState {
  seq: number;
  coins: number;
  xp: number;
  tokens: number;
  coinsEarned: number;
  rewardedEvents: number;
  referrals: number;
  /** Per action key: rewarded events and the last one's time (cooldown, maxRepeats). */
  actions: Record<string, ActionProgress>;
  /** Per period field (see periodField): XP earned in it. */
  periods: Record<string, PeriodXp>;
  /** When XP last changed: the all-time board's tie-break. */
  xpChangedAt: Date | null;
  levelsGranted: number[];
  milestones: string[];
  perks: string[];
  /** Coins and tokens that expire, soonest first (their sum is at most coins, tokens: the rest never expires). */
  coinLots: Lot[];
  tokenLots: Lot[];
  /** Not spendable yet, not in coins and tokens. */
  pendingCoins: number;
  pendingTokens: number;
  /** By release time. */
  pending: PendingCredit[];
  /** Owed after an event reversal took back more than the balance held. */
  debtCoins: number;
  debtTokens: number;
}

export function emptyBalance(): BalanceState {
  return {
    seq: 0,
    coins: 0,
    xp: 0,
    tokens: 0,
    coinsEarned: 0,
    rewardedEvents: 0,
    referrals: 0,
    actions: {},
    periods: {},
    xpChangedAt: null,
    levelsGranted: [],
    milestones: [],
    perks: [],
    coinLots: [],
    tokenLots: [],
    pendingCoins: 0,
    pendingTokens: 0,
    pending: [],
    debtCoins: 0,
    debtTokens: 0,
  };
}

/** Adds a lot (merged with one of the same expiry), soonest first. */
function addLot(lots: Lot[], amount: number, expiresAt: Date): Lot[] {
  const same = lots.findIndex((l) => l.expiresAt.getTime() === expiresAt.getTime());
  if (same >= 0) return lots.map((l, i) => (i === same ? { expiresAt: l.expiresAt, amount: l.amount + amount } : l));
  return [...lots, { expiresAt, amount }].sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime());
}

/** Takes `amount` from the lots, soonest to expire first (what the lots do not hold comes from coins that never expire). */
function consumeLots(lots: Lot[], amount: number): Lot[] {
  let left = amount;
  const out: Lot[] = [];
  for (const lot of lots) {
    const taken = Math.min(left, lot.amount);
    left -= taken;
    if (lot.amount - taken > 0) out.push({ expiresAt: lot.expiresAt, amount: lot.amount - taken });
  }
  return out;
}

function moveLots(lots: Lot[], delta: number, expiresAt: Date | null | undefined): Lot[] {
  if (delta > 0 && expiresAt) return addLot(lots, delta, expiresAt);
  if (delta < 0 && lots.length > 0) return consumeLots(lots, -delta);
  return lots;
}

/** The next `count` expiry dates of a balance's coins and tokens, soonest first (GET /incentives/balances/{userId}'s `expiring`). */
export function expiringSoon(state: Pick<BalanceState, 'coinLots' | 'tokenLots'>, count = 3): Array<{ currency: 'COINS' | 'TOKENS'; amount: number; expiresAt: Date }> {
  return [
    ...state.coinLots.map((l) => ({ currency: 'COINS' as const, amount: l.amount, expiresAt: l.expiresAt })),
    ...state.tokenLots.map((l) => ({ currency: 'TOKENS' as const, amount: l.amount, expiresAt: l.expiresAt })),
  ]
    .sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime())
    .slice(0, count);
}

/**
 * A credit as a balance in debt takes it: the part that repays the debt
 * (`debtRepaid`) and the rest, credited. The ledger writes every movement
 * this way; writers that plan several at once plan with it too.
 */
export function repayingDebt(state: Pick<BalanceState, 'debtCoins' | 'debtTokens'>, m: Movement): Movement {
  const coins = m.coins > 0 ? Math.min(state.debtCoins, m.coins) : 0;
  const tokens = m.tokens > 0 ? Math.min(state.debtTokens, m.tokens) : 0;
  if (coins === 0 && tokens === 0) return m;
  return { ...m, coins: m.coins - coins, tokens: m.tokens - tokens, debtRepaid: { coins, tokens } };
}

/** When the balance next has something due: a lot to expire or a pending credit to release; null: nothing. */
export function nextDueAt(state: Pick<BalanceState, 'coinLots' | 'tokenLots' | 'pending'>): Date | null {
  const times = [state.coinLots[0]?.expiresAt, state.tokenLots[0]?.expiresAt, state.pending[0]?.releaseAt].filter((t): t is Date => Boolean(t));
  return times.length ? new Date(Math.min(...times.map((t) => t.getTime()))) : null;
}

/** The balance after one more entry. Live writes and the rebuild use this same function. */
export function applyMovement(state: BalanceState, m: Omit<Movement, 'cause'>): BalanceState {
  const next: BalanceState = {
    ...state,
    seq: state.seq + 1,
    coins: state.coins + m.coins,
    xp: state.xp + m.xp,
    tokens: state.tokens + m.tokens,
    actions: state.actions,
    periods: state.periods,
  };
  if (EARNING_REASONS.has(m.reason) && m.coins > 0) next.coinsEarned = state.coinsEarned + m.coins;
  if (m.reason === 'ACTION_REWARD' && m.actionKey) {
    next.rewardedEvents = state.rewardedEvents + 1;
    if (m.actionType === 'REFERRAL_REFEREE_ACTION') next.referrals = state.referrals + 1;
    const previous = state.actions[m.actionKey];
    next.actions = { ...state.actions, [m.actionKey]: { count: (previous?.count ?? 0) + 1, lastAt: m.createdAt } };
  }
  if (m.reason === 'REVERSAL' && m.actionKey) undoRewardCounts(state, next, m, m.actionKey);
  next.coinLots = moveLots(state.coinLots, m.coins, m.coinsExpireAt);
  next.tokenLots = moveLots(state.tokenLots, m.tokens, m.tokensExpireAt);
  const pendingCoins = m.pendingCoins ?? 0;
  const pendingTokens = m.pendingTokens ?? 0;
  if (pendingCoins !== 0 || pendingTokens !== 0) {
    next.pendingCoins = state.pendingCoins + pendingCoins;
    next.pendingTokens = state.pendingTokens + pendingTokens;
    next.pending =
      pendingCoins > 0 || pendingTokens > 0
        ? [...state.pending, { key: m.sourceId, coins: pendingCoins, tokens: pendingTokens, releaseAt: m.pendingUntil ?? m.createdAt }].sort(
            (a, b) => a.releaseAt.getTime() - b.releaseAt.getTime(),
          )
        : state.pending.filter((p) => p.key !== m.sourceId);
  }
  if (m.debt || m.debtRepaid) {
    next.debtCoins = state.debtCoins + (m.debt?.coins ?? 0) - (m.debtRepaid?.coins ?? 0);
    next.debtTokens = state.debtTokens + (m.debt?.tokens ?? 0) - (m.debtRepaid?.tokens ?? 0);
  }
  if (m.xp !== 0) {
    const retained = retainedPeriodFields(m.createdAt);
    const periods: Record<string, PeriodXp> = {};
    for (const [field, value] of Object.entries(state.periods)) if (retained.has(field)) periods[field] = value;
    for (const period of TIMED_PERIODS) {
      const field = periodField(period, periodKey(period, m.createdAt));
      // A score override can lower XP; a period never shows less than nothing.
      periods[field] = { xp: Math.max(0, (periods[field]?.xp ?? 0) + m.xp), at: m.createdAt };
    }
    next.periods = periods;
    next.xpChangedAt = m.createdAt;
  }
  if (m.reason === 'LEVEL_REWARD' && m.level !== null && !state.levelsGranted.includes(m.level)) {
    next.levelsGranted = [...state.levelsGranted, m.level].sort((a, b) => a - b);
    const perks = new Set([...state.perks, ...m.perks]);
    next.perks = [...perks];
  }
  if (m.reason === 'MILESTONE_REWARD' && m.milestoneKey && !state.milestones.includes(m.milestoneKey)) {
    next.milestones = [...state.milestones, m.milestoneKey];
  }
  return next;
}

/**
 * A REVERSAL takes back what the ACTION_REWARD it reverses counted: its
 * coins were never earned (spent or not), it is no longer a rewarded event
 * nor a referral, and it frees its place under the action's maxRepeats.
 * When that reward was (cooldown) stays: it happened.
 */
function undoRewardCounts(state: BalanceState, next: BalanceState, m: Omit<Movement, 'cause'>, actionKey: string): void {
  // What the reward had credited as available: taken back, left (unrecovered) or owed (debt); a pending one never counted.
  const rewardedCoins = -m.coins + (m.unrecovered?.coins ?? 0) + (m.debt?.coins ?? 0);
  next.coinsEarned = Math.max(0, state.coinsEarned - rewardedCoins);
  next.rewardedEvents = Math.max(0, state.rewardedEvents - 1);
  if (m.actionType === 'REFERRAL_REFEREE_ACTION') next.referrals = Math.max(0, state.referrals - 1);
  const previous = state.actions[actionKey];
  if (previous) next.actions = { ...state.actions, [actionKey]: { count: Math.max(0, previous.count - 1), lastAt: previous.lastAt } };
}

export const balanceAmounts = (s: Pick<BalanceState, 'coins' | 'xp' | 'tokens'>) => ({ coins: s.coins, xp: s.xp, tokens: s.tokens });

const sameDate = (a: Date | null | undefined, b: Date | null | undefined) => (a?.getTime() ?? null) === (b?.getTime() ?? null);
const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The MongoDB update that turns the stored document at `base` into `next`:
 * counters move by $inc, derived maps by $set/$unset of the parts that
 * changed. It is only ever applied together with a compare-and-set on
 * base.seq, so computing it from `base` is exact.
 */
export function balanceUpdate(base: BalanceState, next: BalanceState): { $inc: Record<string, number>; $set: Record<string, unknown>; $unset: Record<string, ''> } {
  const $inc: Record<string, number> = {};
  for (const field of ['seq', 'coins', 'xp', 'tokens', 'coinsEarned', 'rewardedEvents', 'referrals', 'pendingCoins', 'pendingTokens', 'debtCoins', 'debtTokens'] as const) {
    const delta = next[field] - base[field];
    if (delta !== 0 || field === 'seq') $inc[field] = delta;
  }
  const $set: Record<string, unknown> = {};
  const $unset: Record<string, ''> = {};
  for (const [key, value] of Object.entries(next.actions)) {
    const before = base.actions[key];
    if (!before || before.count !== value.count || !sameDate(before.lastAt, value.lastAt)) $set[`actions.${key}`] = value;
  }
  for (const [field, value] of Object.entries(next.periods)) {
    const before = base.periods[field];
    if (!before || before.xp !== value.xp || !sameDate(before.at, value.at)) $set[`periods.${field}`] = value;
  }
  for (const field of Object.keys(base.periods)) if (!(field in next.periods)) $unset[`periods.${field}`] = '';
  if (!sameDate(base.xpChangedAt, next.xpChangedAt)) $set.xpChangedAt = next.xpChangedAt;
  if (!sameJson(base.levelsGranted, next.levelsGranted)) $set.levelsGranted = next.levelsGranted;
  if (!sameJson(base.milestones, next.milestones)) $set.milestones = next.milestones;
  if (!sameJson(base.perks, next.perks)) $set.perks = next.perks;
  if (!sameJson(base.coinLots, next.coinLots)) $set.coinLots = next.coinLots;
  if (!sameJson(base.tokenLots, next.tokenLots)) $set.tokenLots = next.tokenLots;
  if (!sameJson(base.pending, next.pending)) $set.pending = next.pending;
  const due = nextDueAt(next);
  if (!sameDate(nextDueAt(base), due)) {
    if (due) $set.nextDueAt = due;
    else $unset.nextDueAt = '';
  }
  return { $inc, $set, $unset };
}
