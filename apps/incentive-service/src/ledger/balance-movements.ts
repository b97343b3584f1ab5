import { characterCount } from '@ris/contracts';
import { conflict, invalid, refused } from '@ris/domain-errors';
import { idFromOperation, inBatches, newId, type Page, type PageQuery } from '@ris/mongo';
import type { BalanceState, LedgerReason, Movement } from './balance-fold';
import type { BalanceDoc } from './balance.model';
import type { BalanceSortName, XpRange } from './balance.repository';
import { checkUserId } from '../definitions/definition-key';
import { CREDIT_CAUSES, DEBIT_CAUSES, derivedCause, type LedgerCause } from './ledger-cause';
import type { Ledger } from './ledger';
import { stateFromDoc } from './ledger';
import type { LedgerEntryDoc } from './ledger-entry.model';
import { levelProgress, xpRangeOfLevel, type LevelDef, type LevelProgress } from '../progression/level-progress';
import type { Levels } from '../progression/levels';
import { checkAmount, checkXp, xpThatFits } from './reward-amounts';
import type { RewardGrants } from './reward-grants';

/** A balance as the API shows it. */
export interface BalanceView {
  userId: string;
  state: BalanceState;
  progress: LevelProgress;
  updatedAt: Date | null;
}

export interface MovementResult {
  entry: LedgerEntryDoc;
  balance: BalanceView;
  replayed: boolean;
}

export type { BalanceSortName };

/** A Debit or Credit of the catalog-marketplace service; `cause` null when its release does not send one. */
export interface DebitOrCredit {
  userId: string;
  operationId: string;
  coins: number;
  tokens: number;
  description: string | null;
  cause?: LedgerCause | null;
}

const MAX_ATTEMPTS = 200;

/** Entries and balances an export sends a message (balances: what another service's call then takes at once). */
const TRANSACTIONS_EXPORT_BATCH = 500;
const BALANCES_EXPORT_BATCH = 100;

/** A stored balance as the API shows it, its level from the app's ladder. */
const balanceView = (doc: BalanceDoc, ladder: LevelDef[]): BalanceView => {
  const state = stateFromDoc(doc);
  return { userId: doc.userId, state, updatedAt: doc.updatedAt, progress: levelProgress(ladder, state.xp) };
};

function checkOperationId(value: string): string {
  const id = value.trim();
  if (!id || id.length > 200) throw invalid('operationId must be 1 to 200 characters');
  return id;
}

/** A manual adjustment: signed amounts, at least one not zero, and why. */
export interface Adjustment {
  userId: string;
  coins: number;
  tokens: number;
  xp: number;
  note: string;
  /** From the request's Idempotency-Key (empty without one): the adjustment's id derives from it. */
  operationKey: string;
}

const MAX_NOTE = 500;

/** A signed whole amount (an adjustment's): exact as a double. */
function checkSignedAmount(value: number, field: string): number {
  if (!Number.isSafeInteger(value)) throw invalid(`${field} must be a whole number`, { field });
  return value;
}

/** The fields of a movement that no event, level or milestone made. */
const noSourceDetails = (): Pick<Movement, 'actionKey' | 'actionType' | 'level' | 'milestoneKey' | 'perks'> => ({
  actionKey: null,
  actionType: null,
  level: null,
  milestoneKey: null,
  perks: [],
});

const contention = () => conflict('CONFLICT', 'Too many concurrent changes to this balance; retry.');

/**
 * Balance reads and the movements that are not events: Debit and Credit
 * (for the catalog-marketplace service) and score overrides.
 */
export class BalanceMovements {
  constructor(
    private readonly ledger: Ledger,
    private readonly levels: Levels,
    private readonly grants: RewardGrants,
  ) {}

  async view(appId: string, userId: string): Promise<BalanceView> {
    const { state, updatedAt } = await this.ledger.settled(appId, checkUserId(userId));
    return { userId, state, updatedAt, progress: levelProgress(await this.levels.list(appId), state.xp) };
  }

  /**
   * Balances, highest first; with `level`, only the users at that level
   * (their XP in its range of the ladder); with `userIdPrefix`, only users
   * whose id starts with it; with `userIds`, only those users (one page,
   * one read by _id each: another list's page of people).
   */
  async list(appId: string, page: PageQuery, sort: BalanceSortName, only: { level?: number; userIdPrefix?: string; userIds?: string[] } = {}): Promise<Page<BalanceView>> {
    let xp: XpRange | undefined;
    let ladder: LevelDef[] | undefined;
    if (only.level !== undefined) {
      ladder = await this.levels.list(appId);
      const range = xpRangeOfLevel(ladder, only.level);
      if (!range) return { items: [], page: page.page, limit: page.limit, totalItems: 0 };
      xp = range;
    }
    const docs = only.userIds?.length ? this.ofUsers(appId, only.userIds, sort, page) : this.ledger.balances.page(appId, page, sort, { xp, userIdPrefix: only.userIdPrefix });
    const [found, levels] = await Promise.all([docs, ladder ?? this.levels.list(appId)]);
    return { ...found, items: found.items.map((doc) => balanceView(doc, levels)) };
  }

  /**
   * Every balance list() would list without `userIds`, in its order, a
   * batch at a time: an export (a batch is at most what the referral
   * service's GetParticipants takes, so the gateway completes each in one call).
   */
  async *exportBalances(appId: string, sort: BalanceSortName, only: { level?: number; userIdPrefix?: string }): AsyncIterable<BalanceView[]> {
    const ladder = await this.levels.list(appId);
    const xp = only.level === undefined ? undefined : xpRangeOfLevel(ladder, only.level);
    if (xp === null) return;
    for await (const docs of inBatches(this.ledger.balances.allInOrder(appId, sort, { xp, userIdPrefix: only.userIdPrefix }), BALANCES_EXPORT_BATCH)) {
      yield docs.map((doc) => balanceView(doc, ladder));
    }
  }

  /** The balances of these users that exist, as one page in the list's order. */
  private async ofUsers(appId: string, userIds: string[], sort: BalanceSortName, page: PageQuery): Promise<Page<BalanceDoc>> {
    const found = (await Promise.all(userIds.map((userId) => this.ledger.balances.ofUser(appId, userId)))).filter((doc): doc is BalanceDoc => doc !== null);
    found.sort((a, b) => b[sort] - a[sort] || (a.userId < b.userId ? -1 : 1));
    return { items: found, page: page.page, limit: Math.max(page.limit, found.length), totalItems: found.length };
  }

  async transactions(appId: string, userId: string, page: PageQuery): Promise<Page<LedgerEntryDoc>> {
    // Settle first so the list and the balance agree.
    await this.ledger.settled(appId, checkUserId(userId));
    return this.ledger.entries.ofUser(appId, userId, page);
  }

  /** Every entry transactions() would list, newest first, a batch at a time (settled first the same way): an export. */
  async *exportTransactions(appId: string, userId: string): AsyncIterable<LedgerEntryDoc[]> {
    await this.ledger.settled(appId, checkUserId(userId));
    yield* inBatches(this.ledger.entries.allOfUser(appId, userId), TRANSACTIONS_EXPORT_BATCH);
  }

  debit(appId: string, input: DebitOrCredit) {
    return this.ledger.serialized(appId, input.userId.trim(), () => this.move(appId, 'DEBIT', input));
  }

  credit(appId: string, input: DebitOrCredit) {
    return this.ledger.serialized(appId, input.userId.trim(), () => this.move(appId, 'CREDIT', input));
  }

  /**
   * One Debit or Credit: idempotent by operation id (the ledger key),
   * all or nothing, never below zero. The sufficiency check is made
   * against the balance version the entry is then written at (see ledger.ts).
   */
  private async move(
    appId: string,
    reason: Extract<LedgerReason, 'DEBIT' | 'CREDIT'>,
    input: DebitOrCredit,
  ): Promise<MovementResult> {
    const userId = checkUserId(input.userId);
    const operationId = checkOperationId(input.operationId);
    const allowed = reason === 'DEBIT' ? DEBIT_CAUSES : CREDIT_CAUSES;
    if (input.cause && !allowed.has(input.cause)) throw invalid(`cause of a ${reason} must be one of ${[...allowed].join(', ')}`);
    const coins = checkAmount(input.coins, 'coins');
    const tokens = checkAmount(input.tokens, 'tokens');
    if (coins === 0 && tokens === 0) throw invalid('coins or tokens must be above zero');
    const sign = reason === 'DEBIT' ? -1 : 1;
    const key = `${reason.toLowerCase()}:${operationId}`;
    const movement: Movement = {
      key,
      reason,
      // A caller of an earlier release names none: derived as for entries from before causes.
      cause: input.cause ?? derivedCause(reason, operationId),
      coins: sign * coins,
      xp: 0,
      tokens: sign * tokens,
      sourceId: operationId,
      ...noSourceDetails(),
      description: input.description?.slice(0, 500) ?? null,
      createdAt: new Date(),
    };

    return this.applyOnce(appId, userId, movement, (state) =>
      refused('INSUFFICIENT_BALANCE', `User ${userId} does not have enough coins or tokens for this debit.`, {
        userId,
        needed: { coins, tokens },
        available: { coins: state.coins, tokens: state.tokens },
      }),
    );
  }

  /**
   * A manual adjustment by an operator (POST /incentives/balances/{userId}/adjustments):
   * signed coins, tokens and XP in one ADJUSTMENT entry, refused whole
   * (INSUFFICIENT_BALANCE) when it would leave any of them below zero.
   * Idempotent by its id, derived from the request's operation key; XP
   * moves the boards and grants levels as a recorded score does (the XP
   * credited stops at MAX_XP, like an event's).
   */
  adjust(appId: string, input: Adjustment): Promise<MovementResult> {
    return this.ledger.serialized(appId, input.userId.trim(), () => this.applyAdjustment(appId, input));
  }

  private async applyAdjustment(appId: string, input: Adjustment): Promise<MovementResult> {
    const userId = checkUserId(input.userId);
    const coins = checkSignedAmount(input.coins, 'coins');
    const tokens = checkSignedAmount(input.tokens, 'tokens');
    const xp = checkSignedAmount(input.xp, 'xp');
    if (coins === 0 && tokens === 0 && xp === 0) throw invalid('coins, tokens or xp must be other than zero');
    const note = input.note.trim();
    if (!note || characterCount(input.note) > MAX_NOTE) throw invalid(`note must be 1 to ${MAX_NOTE} characters, not blank`, { field: 'note' });
    const id = idFromOperation('adj', input.operationKey);
    const state = await this.ledger.read(appId, userId);
    const movement: Movement = {
      ...noSourceDetails(),
      key: `adjustment:${id}`,
      reason: 'ADJUSTMENT',
      cause: 'ADJUSTMENT',
      coins,
      xp: xp > 0 ? xpThatFits(state.xp, xp) : xp,
      tokens,
      sourceId: id,
      description: input.note,
      createdAt: new Date(),
    };
    const result = await this.applyOnce(
      appId,
      userId,
      movement,
      (s) =>
        refused('INSUFFICIENT_BALANCE', `User ${userId} does not have enough coins, tokens or XP for this adjustment.`, {
          userId,
          needed: { coins: Math.max(0, -coins), tokens: Math.max(0, -tokens), xp: Math.max(0, -xp) },
          available: { coins: s.coins, tokens: s.tokens, xp: s.xp },
        }),
      state,
    );
    if (xp <= 0) return result;
    // Levels its XP reached are granted now, as for any XP (their rewards follow the adjustment in the ledger);
    // a replay finishes what a crashed first try may have left due.
    const granted = await this.grants.grantDue(appId, userId, result.balance.state, null);
    return { ...result, balance: await this.viewOf(appId, userId, granted.state) };
  }

  /**
   * Records one movement under its key, at most once: planned against the
   * balance version it is written at (see ledger.ts), refused with
   * `refusal` when it would leave coins, tokens or XP below zero (unless
   * the key was applied before: then it is a replay, whose balance is lower
   * because of it).
   */
  private async applyOnce(
    appId: string,
    userId: string,
    movement: Movement,
    refusal: (state: BalanceState) => Error,
    read?: BalanceState,
  ): Promise<MovementResult> {
    let state = read ?? (await this.ledger.read(appId, userId));
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      if (state.coins + movement.coins < 0 || state.tokens + movement.tokens < 0 || state.xp + movement.xp < 0) {
        const earlier = await this.ledger.findByKey(appId, movement.key);
        if (earlier) return this.replay(appId, earlier, movement, userId);
        const settled = (await this.ledger.settled(appId, userId)).state;
        if (settled.seq !== state.seq) {
          state = settled;
          continue;
        }
        throw refusal(state);
      }
      const result = await this.ledger.append(appId, userId, state, [movement]);
      if (result.kind === 'applied') {
        return { entry: result.entries[0], balance: await this.viewOf(appId, userId, result.state), replayed: false };
      }
      if (result.keyTaken) {
        const earlier = await this.ledger.findByKey(appId, movement.key);
        if (earlier) return this.replay(appId, earlier, movement, userId);
      }
      state = await this.ledger.afterConflict(appId, userId, attempt);
    }
    throw contention();
  }

  private async replay(appId: string, earlier: LedgerEntryDoc, movement: Movement, userId: string): Promise<MovementResult> {
    if (earlier.userId !== userId || earlier.coins !== movement.coins || earlier.tokens !== movement.tokens || earlier.xp !== movement.xp) {
      throw conflict('IDEMPOTENCY_KEY_REUSED', `Operation ${movement.sourceId} was already used for another user or other amounts.`, {
        operationId: movement.sourceId,
      });
    }
    // It may be the tail a crashed writer left: settle so the balance includes it.
    return { entry: earlier, balance: await this.view(appId, userId), replayed: true };
  }

  private async viewOf(appId: string, userId: string, state: BalanceState): Promise<BalanceView> {
    return { userId, state, updatedAt: new Date(), progress: levelProgress(await this.levels.list(appId), state.xp) };
  }

  /**
   * Records an externally computed score: sets the user's XP (and coins,
   * when given) to these totals with one SCORE_SET entry, so the board, the
   * balance and the ledger keep agreeing. Absolute, so a retry is harmless.
   * Reaching a level this way grants it like any other XP.
   */
  setScore(appId: string, input: { userId: string; xp: number; coins: number | null }): Promise<BalanceState> {
    return this.ledger.serialized(appId, input.userId.trim(), () => this.overrideScore(appId, input));
  }

  private async overrideScore(appId: string, input: { userId: string; xp: number; coins: number | null }): Promise<BalanceState> {
    const userId = checkUserId(input.userId);
    const xp = checkXp(input.xp, 'xp');
    const coins = input.coins === null ? null : checkAmount(input.coins, 'coins');
    let state = await this.ledger.read(appId, userId);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const movement: Movement = {
        key: `score:${newId('scr')}`,
        reason: 'SCORE_SET',
        cause: 'SCORE_SET',
        coins: coins === null ? 0 : coins - state.coins,
        xp: xp - state.xp,
        tokens: 0,
        sourceId: 'leaderboard',
        ...noSourceDetails(),
        description: 'Score recorded with POST /incentives/leaderboard',
        createdAt: new Date(),
      };
      const result = await this.ledger.append(appId, userId, state, [movement]);
      if (result.kind === 'applied') {
        const granted = await this.grants.grantDue(appId, userId, result.state, null);
        return granted.state;
      }
      state = await this.ledger.afterConflict(appId, userId, attempt);
    }
    throw contention();
  }
}
