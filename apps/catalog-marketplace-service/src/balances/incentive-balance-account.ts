import { LedgerCause, type Balance, type IncentiveService, type ServiceCalls } from '@ris/contracts';
import { isDomainError } from '@ris/domain-errors';
import type { BalanceAccount, BalanceOperation, BalanceSnapshot, DebitOutcome } from './balance-account';

function snapshot(balance: Balance | undefined): BalanceSnapshot {
  return { coins: balance?.coins ?? 0, tokens: balance?.tokens ?? 0, xp: balance?.xp ?? 0, level: balance?.level ?? 0 };
}

/**
 * BalanceAccount over the incentive service's Debit / Credit / GetBalance
 * (idempotent by operation id). Its calls raise the incentive service's
 * own refusals as domain errors (main.ts wires them with
 * refusalsAsDomainErrors of @ris/rpc): those prove the debit was not
 * applied (it records nothing for them) and keep their public reason
 * (INSUFFICIENT_BALANCE, VALIDATION_ERROR, IDEMPOTENCY_KEY_REUSED…).
 * Anything else leaves the outcome unknown: unavailable, deadline,
 * internal, and errors the transport makes up without a reason (a reset
 * connection arrives as Aborted "read ECONNRESET" although the debit may
 * have been applied).
 */
export class IncentiveBalanceAccount implements BalanceAccount {
  constructor(private readonly incentive: ServiceCalls<typeof IncentiveService>) {}

  async debit(op: BalanceOperation): Promise<DebitOutcome> {
    try {
      const res = await this.incentive.debit(this.request(op));
      return { ok: true, balance: snapshot(res.balance) };
    } catch (err) {
      if (!isDomainError(err)) throw err;
      // Answered as this service's own error, keeping the public reason.
      return { ok: false, insufficient: err.reason === 'INSUFFICIENT_BALANCE', error: err };
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
