import type { Client } from '@connectrpc/connect';
import { LedgerCause, type Balance, type IncentiveService } from '@ris/contracts';
import { Code, ConnectError, errorReason, rpcError } from '@ris/rpc';
import type { BalanceAccount, BalanceOperation, BalanceSnapshot, DebitOutcome } from './balance-account';

/**
 * Answers that prove the debit was not applied: the incentive service's
 * own refusals (it records nothing for them), which carry a public reason
 * (INSUFFICIENT_BALANCE, VALIDATION_ERROR, IDEMPOTENCY_KEY_REUSED…).
 * Anything else leaves the outcome unknown: unavailable, deadline,
 * internal, and errors the transport makes up without a reason (a reset
 * connection arrives as Aborted "read ECONNRESET" although the debit may
 * have been applied).
 */
const REFUSAL_CODES = new Set([Code.FailedPrecondition, Code.InvalidArgument, Code.NotFound, Code.Aborted, Code.PermissionDenied]);

function snapshot(balance: Balance | undefined): BalanceSnapshot {
  return { coins: balance?.coins ?? 0, tokens: balance?.tokens ?? 0, xp: balance?.xp ?? 0, level: balance?.level ?? 0 };
}

/** BalanceAccount over the incentive service's Debit / Credit / GetBalance (idempotent by operation id). */
export class IncentiveBalanceAccount implements BalanceAccount {
  constructor(private readonly incentive: Client<typeof IncentiveService>) {}

  async debit(op: BalanceOperation): Promise<DebitOutcome> {
    try {
      const res = await this.incentive.debit(this.request(op));
      return { ok: true, balance: snapshot(res.balance) };
    } catch (err) {
      if (!(err instanceof ConnectError) || !REFUSAL_CODES.has(err.code)) throw err;
      const { reason, details } = errorReason(err);
      if (!reason) throw err;
      // Re-raised as this service's own error, keeping the public reason.
      const error = rpcError(err.code, reason, err.rawMessage, details);
      return { ok: false, insufficient: reason === 'INSUFFICIENT_BALANCE', error };
    }
  }

  async credit(op: BalanceOperation): Promise<BalanceSnapshot> {
    return snapshot((await this.incentive.credit(this.request(op))).balance);
  }

  async balance(appId: string, userId: string): Promise<BalanceSnapshot> {
    return snapshot((await this.incentive.getBalance({ appId, userId })).balance);
  }

  private request(op: BalanceOperation) {
    return {
      appId: op.appId,
      userId: op.userId,
      operationId: op.operationId,
      coins: op.coins,
      tokens: op.tokens,
      description: op.memo,
      cause: LedgerCause[op.cause],
    };
  }
}
