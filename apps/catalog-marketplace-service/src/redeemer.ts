import type { JsonObject } from '@bufbuild/protobuf';
import type { Logger } from '@ris/logging';
import { Code, rpcError } from '@ris/rpc';
import type { BalanceAccount, BalanceSnapshot } from './balance-account';
import type { RedemptionSaga } from './redemption-saga';
import type { SagaRecord } from './saga-record';

type StartFields = Pick<SagaRecord, 'state' | 'debit' | 'failureReason' | 'stockTaken' | 'open' | 'leaseUntil' | 'createdAt' | 'updatedAt'>;

/**
 * What redeem() does around the saga, the same for catalog and marketplace
 * redemptions: refuse a sold-out good, start the record, run the saga and
 * answer the user's balance after it.
 */
export class Redeemer<R extends SagaRecord> {
  constructor(
    private readonly saga: RedemptionSaga<R>,
    private readonly account: BalanceAccount,
    private readonly logger: Logger,
  ) {}

  /** Refused before anything is recorded; a race to the last unit is settled by the reservation. */
  refuseIfSoldOut(stock: number, good: JsonObject): void {
    if (stock === 0) throw rpcError(Code.FailedPrecondition, 'OUT_OF_STOCK', 'Out of stock.', good);
  }

  /** The saga fields of a record about to be made: RESERVING, nothing tried, owned by this request. */
  startFields(now: Date): StartFields {
    return {
      state: 'RESERVING',
      debit: 'NOT_TRIED',
      failureReason: null,
      stockTaken: false,
      open: true,
      leaseUntil: this.saga.leaseFrom(now),
      createdAt: now,
      updatedAt: now,
    };
  }

  /** Runs a fresh record's saga to CONFIRMED; `limitedStock`: the good was not unlimited when read. */
  async run(record: R, limitedStock: boolean): Promise<{ redemption: R; balance: BalanceSnapshot | null }> {
    const { record: confirmed, balance } = await this.saga.acquire(record, limitedStock);
    return { redemption: confirmed, balance: balance ?? (await this.balanceOfFreeRedemption(record.appId, record.userId)) };
  }

  /** A free good debits nothing, so the balance is read; it is not worth failing a done redemption for. */
  private async balanceOfFreeRedemption(appId: string, userId: string): Promise<BalanceSnapshot | null> {
    try {
      return await this.account.balance(appId, userId);
    } catch (err) {
      this.logger.warn({ err, userId }, 'balance unavailable after a free redemption');
      return null;
    }
  }
}
