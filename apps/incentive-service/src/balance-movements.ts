import type { Connection } from 'mongoose';
import { AppScoped, newId, type Page, type PageQuery } from '@ris/mongo';
import { Code, invalidArgument, rpcError } from '@ris/rpc';
import type { BalanceState, LedgerReason, Movement } from './balance-fold';
import { balanceModel, type BalanceDoc } from './balance.model';
import { checkUserId } from './definition-key';
import type { Ledger } from './ledger';
import { stateFromDoc } from './ledger';
import type { LedgerEntryDoc } from './ledger-entry.model';
import { levelProgress, type LevelProgress } from './level-progress';
import type { Levels } from './levels';
import { checkAmount, checkXp } from './reward-amounts';
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

export type BalanceSortName = 'xp' | 'coins' | 'tokens';

const MAX_ATTEMPTS = 200;

function checkOperationId(value: string): string {
  const id = value.trim();
  if (!id || id.length > 200) throw invalidArgument('operationId must be 1 to 200 characters');
  return id;
}

const contention = () => rpcError(Code.Aborted, 'CONFLICT', 'Too many concurrent changes to this balance; retry.');

/**
 * Balance reads and the movements that are not events: Debit and Credit
 * (for the catalog-marketplace service) and score overrides.
 */
export class BalanceMovements {
  private readonly balancePages: AppScoped<BalanceDoc>;
  private readonly entryPages: AppScoped<LedgerEntryDoc>;

  constructor(
    db: Connection,
    private readonly ledger: Ledger,
    private readonly levels: Levels,
    private readonly grants: RewardGrants,
  ) {
    this.balancePages = new AppScoped(balanceModel(db));
    this.entryPages = new AppScoped(ledger.entries);
  }

  async view(appId: string, userId: string): Promise<BalanceView> {
    const { state, updatedAt } = await this.ledger.settled(appId, checkUserId(userId));
    return { userId, state, updatedAt, progress: levelProgress(await this.levels.list(appId), state.xp) };
  }

  async list(appId: string, page: PageQuery, sort: BalanceSortName): Promise<Page<BalanceView>> {
    const [docs, ladder] = await Promise.all([
      this.balancePages.page(appId, {}, { [sort]: -1, userId: 1 }, page),
      this.levels.list(appId),
    ]);
    return {
      ...docs,
      items: docs.items.map((doc) => {
        const state = stateFromDoc(doc);
        return { userId: doc.userId, state, updatedAt: doc.updatedAt, progress: levelProgress(ladder, state.xp) };
      }),
    };
  }

  async transactions(appId: string, userId: string, page: PageQuery): Promise<Page<LedgerEntryDoc>> {
    // Settle first so the list and the balance agree.
    await this.ledger.settled(appId, checkUserId(userId));
    return this.entryPages.page(appId, { userId }, { seq: -1 }, page);
  }

  debit(appId: string, input: { userId: string; operationId: string; coins: number; tokens: number; description: string | null }) {
    return this.ledger.serialized(appId, input.userId.trim(), () => this.move(appId, 'DEBIT', input));
  }

  credit(appId: string, input: { userId: string; operationId: string; coins: number; tokens: number; description: string | null }) {
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
    input: { userId: string; operationId: string; coins: number; tokens: number; description: string | null },
  ): Promise<MovementResult> {
    const userId = checkUserId(input.userId);
    const operationId = checkOperationId(input.operationId);
    const coins = checkAmount(input.coins, 'coins');
    const tokens = checkAmount(input.tokens, 'tokens');
    if (coins === 0 && tokens === 0) throw invalidArgument('coins or tokens must be above zero');
    const sign = reason === 'DEBIT' ? -1 : 1;
    const key = `${reason.toLowerCase()}:${operationId}`;
    const movement: Movement = {
      key,
      reason,
      coins: sign * coins,
      xp: 0,
      tokens: sign * tokens,
      sourceId: operationId,
      actionKey: null,
      actionType: null,
      level: null,
      milestoneKey: null,
      perks: [],
      description: input.description?.slice(0, 500) ?? null,
      createdAt: new Date(),
    };

    let state = await this.ledger.read(appId, userId);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      if (reason === 'DEBIT' && (state.coins < coins || state.tokens < tokens)) {
        // Already applied earlier (the balance is lower because of it)? Then this is a replay.
        const earlier = await this.ledger.findByKey(appId, key);
        if (earlier) return this.replay(appId, earlier, movement, userId);
        const settled = (await this.ledger.settled(appId, userId)).state;
        if (settled.seq !== state.seq) {
          state = settled;
          continue;
        }
        throw rpcError(Code.FailedPrecondition, 'INSUFFICIENT_BALANCE', `User ${userId} does not have enough coins or tokens for this debit.`, {
          userId,
          needed: { coins, tokens },
          available: { coins: state.coins, tokens: state.tokens },
        });
      }
      const result = await this.ledger.append(appId, userId, state, [movement]);
      if (result.kind === 'applied') {
        return { entry: result.entries[0], balance: await this.viewOf(appId, userId, result.state), replayed: false };
      }
      if (result.keyTaken) {
        const earlier = await this.ledger.findByKey(appId, key);
        if (earlier) return this.replay(appId, earlier, movement, userId);
      }
      state = await this.ledger.afterConflict(appId, userId, attempt);
    }
    throw contention();
  }

  private async replay(appId: string, earlier: LedgerEntryDoc, movement: Movement, userId: string): Promise<MovementResult> {
    if (earlier.userId !== userId || earlier.coins !== movement.coins || earlier.tokens !== movement.tokens) {
      throw rpcError(Code.Aborted, 'IDEMPOTENCY_KEY_REUSED', `Operation ${movement.sourceId} was already used for another user or other amounts.`, {
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
        coins: coins === null ? 0 : coins - state.coins,
        xp: xp - state.xp,
        tokens: 0,
        sourceId: 'leaderboard',
        actionKey: null,
        actionType: null,
        level: null,
        milestoneKey: null,
        perks: [],
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
