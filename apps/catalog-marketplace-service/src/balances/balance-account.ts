import type { DomainError } from '@ris/domain-errors';

/** Coins and tokens: what a redemption costs. Whole numbers (the incentive ledger refuses fractions). */
export interface Spendable {
  coins: number;
  tokens: number;
}

/** A user's balance as the incentive service reports it. */
export interface BalanceSnapshot extends Spendable {
  xp: number;
  level: number;
}

/** One balance change, applied at most once per (appId, operationId). */
export interface BalanceOperation extends Spendable {
  operationId: string;
  appId: string;
  userId: string;
  /** Why, for the user's ledger (e.g. "catalog redemption rdm_…"). */
  memo: string;
  /** The ledger entry's cause: the redemption's kind for its debit, REFUND for giving it back. */
  cause: 'CATALOG_REDEMPTION' | 'MARKETPLACE_REDEMPTION' | 'REFUND';
}

export type DebitOutcome =
  | { ok: true; balance: BalanceSnapshot }
  /** Definitely not applied: INSUFFICIENT_BALANCE, or another definite refusal (error carries it, as the caller gets it). */
  | { ok: false; insufficient: boolean; error: DomainError };

/**
 * The balances the incentive service owns, as the redemption saga needs
 * them. Implementations throw when the outcome is unknown (unreachable,
 * timed out): the saga then treats the debit as possibly applied.
 */
export interface BalanceAccount {
  /** Takes coins and tokens, never below zero; replaying an applied operation answers ok again without taking twice. */
  debit(operation: BalanceOperation): Promise<DebitOutcome>;
  /** Gives coins and tokens; replaying an operation gives nothing more. */
  credit(operation: BalanceOperation): Promise<BalanceSnapshot>;
  balance(appId: string, userId: string): Promise<BalanceSnapshot>;
}
