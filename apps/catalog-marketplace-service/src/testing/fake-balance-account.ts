import { Code, ConnectError } from '@connectrpc/connect';
import { refused } from '@ris/domain-errors';
import type { BalanceAccount, BalanceOperation, BalanceSnapshot, DebitOutcome } from '../balances/balance-account';

// For the saga's integration tests only (not imported by the service).

/**
 * An in-memory stand-in for the incentive service with its promised
 * semantics (idempotent by operation id, never negative, refusals record
 * nothing) and switches to make it fail the ways a network does.
 */
export class FakeBalanceAccount implements BalanceAccount {
  private readonly balances = new Map<string, { coins: number; tokens: number }>();
  private readonly applied = new Set<string>();
  readonly debits: BalanceOperation[] = [];
  readonly credits: BalanceOperation[] = [];
  /** down: nothing reaches it; lostAnswer: it applies the operation, the answer is lost. */
  mode: 'up' | 'down' | 'lostAnswer' = 'up';

  give(userId: string, coins: number, tokens = 0) {
    this.balances.set(userId, { coins, tokens });
  }

  of(userId: string): BalanceSnapshot {
    const b = this.balances.get(userId) ?? { coins: 0, tokens: 0 };
    return { ...b, xp: 0, level: 1 };
  }

  private unavailable() {
    return new ConnectError('incentive service unavailable', Code.Unavailable);
  }

  /** A call arriving: a turn later, refused while down; whether its operation is new (each applies once). */
  private async arrive(op: BalanceOperation): Promise<{ fresh: boolean; key: string }> {
    await new Promise((resolve) => setImmediate(resolve));
    if (this.mode === 'down') throw this.unavailable();
    const key = `${op.appId}/${op.operationId}`;
    return { fresh: !this.applied.has(key), key };
  }

  async debit(op: BalanceOperation): Promise<DebitOutcome> {
    const { fresh, key } = await this.arrive(op);
    if (fresh) {
      const b = this.of(op.userId);
      if (b.coins < op.coins || b.tokens < op.tokens) {
        const error = refused('INSUFFICIENT_BALANCE', 'not enough');
        return { ok: false, insufficient: true, error };
      }
      this.balances.set(op.userId, { coins: b.coins - op.coins, tokens: b.tokens - op.tokens });
      this.applied.add(key);
      this.debits.push(op);
    }
    if (this.mode === 'lostAnswer') throw this.unavailable();
    return { ok: true, balance: this.of(op.userId) };
  }

  async credit(op: BalanceOperation): Promise<BalanceSnapshot> {
    const { fresh, key } = await this.arrive(op);
    if (fresh) {
      const b = this.of(op.userId);
      this.balances.set(op.userId, { coins: b.coins + op.coins, tokens: b.tokens + op.tokens });
      this.applied.add(key);
      this.credits.push(op);
    }
    if (this.mode === 'lostAnswer') throw this.unavailable();
    return this.of(op.userId);
  }

  async balance(_appId: string, userId: string): Promise<BalanceSnapshot> {
    if (this.mode === 'down') throw this.unavailable();
    return this.of(userId);
  }
}
