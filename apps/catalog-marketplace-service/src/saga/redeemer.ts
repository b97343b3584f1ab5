import { conflict, refused } from '@ris/domain-errors';
import type { Logger } from '@ris/logging';
import { newId } from '@ris/mongo';
import type { BalanceAccount, BalanceSnapshot } from '../balances/balance-account';
import { isFinalRefusal, retryAction } from './redemption-saga-machine';
import { refusalError, type RedemptionSaga } from './redemption-saga';
import type { SagaRecord } from './saga-record';
import type { StockMarkers } from '../goods/stock-markers';

type StartFields = Pick<
  SagaRecord,
  'state' | 'debit' | 'failureReason' | 'stockTaken' | 'open' | 'leaseUntil' | 'holder' | 'operationKey' | 'createdAt' | 'updatedAt'
>;

/** A fresh record under the id given, and whether its good had a limited stock when read. */
export interface NewRedemption<R> {
  record: R;
  limitedStock: boolean;
}

export interface RedeemRequest<R> {
  appId: string;
  /** From the request's Idempotency-Key; empty without one. */
  operationKey: string;
  /** The id prefix of this kind of redemption (rdm, mkr). */
  idPrefix: string;
  /** Reads the good, refuses a sold-out one, and inserts the RESERVING record under `id`; null when a record under `id` exists already. */
  make: (id: string) => Promise<NewRedemption<R> | null>;
  /** The record found under the key was made by this very request (same user and good). */
  sameRequest: (record: R) => boolean;
}

/**
 * A retry that keeps failing for passing reasons makes a new attempt each
 * time; past this many the key is worn out and the retry is refused.
 */
const MAX_ATTEMPTS = 50;

/**
 * The id of the n-th attempt of the redemption an operation key started:
 * each attempt's debit and stock hold are keyed by it, so an attempt is
 * applied at most once, and at most one attempt of a key ever succeeds
 * (a new attempt is made only after the last one failed for good).
 */
export function attemptId(prefix: string, operationKey: string, attempt: number): string {
  return attempt === 1 ? `${prefix}_${operationKey}` : `${prefix}_${operationKey}_${attempt}`;
}

const busy = () => conflict('CONFLICT', 'A redemption with this Idempotency-Key is still in progress; retry shortly.');

/**
 * What redeem() does around the saga, the same for catalog and marketplace
 * redemptions: refuse a sold-out good, start the record, run the saga and
 * answer the user's balance after it; and, for a request with an
 * Idempotency-Key, make at most one purchase per key however often it is
 * retried, whatever the earlier tries ran into (see redeem).
 */
export class Redeemer<R extends SagaRecord> {
  constructor(
    private readonly saga: RedemptionSaga<R>,
    private readonly account: BalanceAccount,
    private readonly logger: Logger,
  ) {}

  /**
   * Stores a fresh record, complete (no defaults are filled in), with the
   * other redemptions' that arrive together (SagaRecordRepository.insert);
   * null when its _id (or another unique key) is taken.
   */
  async insert(record: R): Promise<R | null> {
    return (await this.saga.kind.records.insert(record)) ? record : null;
  }

  /**
   * Refused before anything is recorded; a race to the last unit is settled
   * by the reservation. None left while others hold units is not final:
   * those may come back, so the reservation decides (see takeWaitingForHolds).
   */
  refuseIfSoldOut(stock: number, good: StockMarkers, ref: Record<string, string>): void {
    if (stock === 0 && good.stockHolds.length === 0) throw refused('OUT_OF_STOCK', 'Out of stock.', ref);
  }

  /** The saga fields of a record about to be made: RESERVING, nothing tried, owned by this request. */
  startFields(now: Date, operationKey: string): StartFields {
    return {
      state: 'RESERVING',
      debit: 'NOT_TRIED',
      failureReason: null,
      stockTaken: false,
      open: true,
      leaseUntil: this.saga.leaseFrom(now),
      holder: this.saga.options.liveness.instanceId,
      operationKey: operationKey || null,
      createdAt: now,
      updatedAt: now,
    };
  }

  /**
   * One redemption. Without an operation key, a new one each call. With
   * one, the redemption's id derives from it, so a retry of a request whose
   * outcome the caller never learnt (a 503, a timeout, a dropped
   * connection, a service killed mid-call) finds what the first try left:
   * a made redemption is answered again; one nobody is working on any more
   * (its process died) is taken over and finished; one still being worked
   * on answers a conflict to retry; a final refusal is answered again; a
   * failure for a passing reason (nothing taken) gives way to a new attempt.
   */
  async redeem(request: RedeemRequest<R>): Promise<{ redemption: R; balance: BalanceSnapshot | null }> {
    const { appId, operationKey } = request;
    if (!operationKey) {
      const id = newId(request.idPrefix);
      const made = await request.make(id);
      if (!made) throw new Error(`a fresh redemption id ${id} was taken`);
      return this.run(made.record, made.limitedStock);
    }
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      const id = attemptId(request.idPrefix, operationKey, attempt);
      let record = await this.saga.kind.records.findById(appId, id);
      if (!record) {
        const made = await request.make(id);
        if (made) return this.run(made.record, made.limitedStock);
        // Another try of the same key inserted it first: see what it is.
        record = await this.saga.kind.records.findById(appId, id);
        if (!record) throw busy();
      }
      if (!request.sameRequest(record)) {
        throw conflict('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used with a different request.');
      }
      const now = new Date();
      const action = retryAction(record, now, await this.saga.holderAlive(record));
      switch (action) {
        case 'RETURN':
          return { redemption: record, balance: await this.balanceOrNull(record) };
        case 'BUSY':
          throw busy();
        case 'REFUSE_AGAIN':
          if (!isFinalRefusal(record.failureReason)) throw busy();
          throw refusalError(record.failureReason, record, this.saga.kind.good(record));
        case 'NEW_ATTEMPT':
          continue;
        case 'RESUME': {
          const claimed = await this.saga.claim(record, now);
          if (!claimed) throw busy();
          this.logger.info({ redemptionId: record._id }, 'redemption taken over from a process that is gone, by a retry of its request');
          // A unit its first try may have taken is found again by the hold (take is idempotent per holder).
          return this.run(claimed, true);
        }
        case 'COMPENSATE_THEN_RETRY': {
          const claimed = await this.saga.claim(record, now);
          if (!claimed) throw busy();
          try {
            await this.saga.compensate(claimed);
          } catch (err) {
            await this.saga.releaseLease(claimed);
            throw err;
          }
          // Look at the same attempt again: now FAILED, its reason says whether a new attempt may follow.
          attempt -= 1;
          continue;
        }
      }
    }
    throw refused('UNPROCESSABLE', `This Idempotency-Key has failed ${MAX_ATTEMPTS} times; send the request with a new key.`);
  }

  /** Runs a fresh record's saga to CONFIRMED; `limitedStock`: the good was not unlimited when read. */
  private async run(record: R, limitedStock: boolean): Promise<{ redemption: R; balance: BalanceSnapshot | null }> {
    const { record: confirmed, balance } = await this.saga.acquire(record, limitedStock);
    return { redemption: confirmed, balance: balance ?? (await this.balanceOrNull(record)) };
  }

  /** Read after a free redemption (nothing debited) or for a redemption answered again; not worth failing a done redemption for. */
  private async balanceOrNull(record: R): Promise<BalanceSnapshot | null> {
    try {
      return await this.account.balance(record.appId, record.userId);
    } catch (err) {
      this.logger.warn({ err, userId: record.userId }, 'balance unavailable after a redemption');
      return null;
    }
  }
}
