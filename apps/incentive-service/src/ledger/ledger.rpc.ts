import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { ServiceImpl } from '@connectrpc/connect';
import {
  BalanceSchema,
  BalanceSort,
  LedgerCause as LedgerCauseEnum,
  LedgerEntrySchema,
  LedgerReason,
  enumName,
  enumValue,
  type Balance,
  type IncentiveService,
  type LedgerEntry,
  type ListBalancesRequest,
} from '@ris/contracts';
import { invalidArgument, pageFromRequest, pageReply, tenantOf } from '@ris/rpc';
import type { BalanceMovements, BalanceSortName, BalanceView, MovementResult } from './balance-movements';
import { expiringSoon } from './balance-fold';
import { causeOf, type LedgerCause } from './ledger-cause';
import type { LedgerEntryDoc } from './ledger-entry.model';

export function balanceMessage(view: BalanceView): Balance {
  const { state, progress } = view;
  return create(BalanceSchema, {
    userId: view.userId,
    coins: state.coins,
    tokens: state.tokens,
    xp: state.xp,
    level: progress.level,
    levelName: progress.levelName ?? undefined,
    nextLevel: progress.next ?? undefined,
    progress: progress.progress,
    perks: state.perks,
    coinsEarned: state.coinsEarned,
    rewardedEvents: state.rewardedEvents,
    referrals: state.referrals,
    updatedAt: view.updatedAt ? timestampFromDate(view.updatedAt) : undefined,
    pendingCoins: state.pendingCoins,
    pendingTokens: state.pendingTokens,
    expiring: expiringSoon(state).map((e) => ({ ...e, expiresAt: timestampFromDate(e.expiresAt) })),
    debtCoins: state.debtCoins,
    debtTokens: state.debtTokens,
  });
}

export function ledgerEntryMessage(doc: LedgerEntryDoc): LedgerEntry {
  return create(LedgerEntrySchema, {
    id: doc._id,
    userId: doc.userId,
    seq: doc.seq,
    reason: enumValue(LedgerReason, doc.reason),
    cause: enumValue(LedgerCauseEnum, causeOf(doc)),
    amounts: { coins: doc.coins, xp: doc.xp, tokens: doc.tokens },
    balanceAfter: doc.balanceAfter,
    sourceId: doc.sourceId,
    actionKey: doc.actionKey ?? undefined,
    description: doc.description ?? undefined,
    createdAt: timestampFromDate(doc.createdAt),
    // REVERSAL entries only: what could not be taken back, and the reversal answered.
    unrecovered: doc.unrecovered ?? undefined,
    reversal: doc.reversal ?? undefined,
    boost: doc.boost ?? undefined,
    streakKey: doc.streakKey ?? undefined,
    streakLength: doc.streakLength ?? undefined,
    pendingCoins: doc.pendingCoins ?? 0,
    pendingTokens: doc.pendingTokens ?? 0,
    debt: doc.debt ?? undefined,
    debtRepaid: doc.debtRepaid ?? undefined,
  });
}

const ledgerCause = (c: LedgerCauseEnum) => (enumName(LedgerCauseEnum, c) as LedgerCause | undefined) ?? null;

const movementMessage = (r: MovementResult) => ({ entry: ledgerEntryMessage(r.entry), balance: balanceMessage(r.balance), replayed: r.replayed });

const SORTS: Record<BalanceSort, BalanceSortName> = {
  [BalanceSort.UNSPECIFIED]: 'xp',
  [BalanceSort.XP]: 'xp',
  [BalanceSort.COINS]: 'coins',
  [BalanceSort.TOKENS]: 'tokens',
};

/** The order and the filters of a list or export of balances (XP unless it names another). */
// The order and range of a list or export request (the same fields in both).
const balanceSort = (req: Omit<ListBalancesRequest, 'page' | '$typeName'>): BalanceSortName => SORTS[req.sort] ?? 'xp';
const balanceRange = (req: Omit<ListBalancesRequest, 'page' | '$typeName'>) => ({ level: req.level, userIdPrefix: req.userIdPrefix || undefined });

type LedgerCalls = Pick<
  ServiceImpl<typeof IncentiveService>,
  'getBalance' | 'listBalances' | 'exportBalances' | 'listTransactions' | 'exportTransactions' | 'debit' | 'adjustBalance' | 'credit'
>;

/** Balances and the ledger at the edge: reads, and the movements that are not events. */
export function ledgerCalls(movements: BalanceMovements): LedgerCalls {
  return {
    async getBalance(req, ctx) {
      return { balance: balanceMessage(await movements.view(tenantOf(ctx), req.userId)) };
    },
    async listBalances(req, ctx) {
      if (req.userIds.length > 100) throw invalidArgument('at most 100 userIds');
      const page = await movements.list(tenantOf(ctx), pageFromRequest(req.page), balanceSort(req), { ...balanceRange(req), userIds: req.userIds });
      return { balances: page.items.map(balanceMessage), page: pageReply(page) };
    },
    async *exportBalances(req, ctx) {
      // Named users are a page of another list already: ListBalances answers them.
      if (req.userIds.length > 0) throw invalidArgument('userIds is for ListBalances, not an export');
      for await (const batch of movements.exportBalances(tenantOf(ctx), balanceSort(req), balanceRange(req))) yield { balances: batch.map(balanceMessage) };
    },
    async listTransactions(req, ctx) {
      const page = await movements.transactions(tenantOf(ctx), req.userId, pageFromRequest(req.page));
      return { transactions: page.items.map(ledgerEntryMessage), page: pageReply(page) };
    },
    async *exportTransactions(req, ctx) {
      for await (const batch of movements.exportTransactions(tenantOf(ctx), req.userId)) yield { transactions: batch.map(ledgerEntryMessage) };
    },
    async debit(req, ctx) {
      return movementMessage(await movements.debit(tenantOf(ctx), { ...req, description: req.description ?? null, cause: ledgerCause(req.cause) }));
    },
    async adjustBalance(req, ctx) {
      return movementMessage(await movements.adjust(tenantOf(ctx), req));
    },
    async credit(req, ctx) {
      return movementMessage(await movements.credit(tenantOf(ctx), { ...req, description: req.description ?? null, cause: ledgerCause(req.cause) }));
    },
  };
}
