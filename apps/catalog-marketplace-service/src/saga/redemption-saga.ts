import { crashPoint } from '@ris/config';
import { conflict, refused, unavailable } from '@ris/domain-errors';
import type { DomainEvent } from '@ris/events';
import type { Logger } from '@ris/logging';
import type { HolderLiveness } from '@ris/service-runtime';
import type { BalanceAccount, BalanceOperation, BalanceSnapshot, DebitOutcome } from '../balances/balance-account';
import {
  compensationSteps,
  effectsOf,
  isHeld,
  transition,
  type Effect,
  type FinalRefusal,
  type SagaInput,
  type StockRefusal,
} from './redemption-saga-machine';
import { redemptionsMoved } from './redemption-metrics';
import type { SagaRecord } from './saga-record';
import type { SagaRecordRepository } from './saga-record.repository';
import type { TakeOutcome } from '../goods/stock-counter';

/** The stock moves a saga makes on its good (a StockCounter over items or listings). */
export interface StockMoves {
  take(appId: string, goodId: string, holder: string): Promise<TakeOutcome>;
  release(appId: string, goodId: string, holder: string): Promise<void>;
  commitSoon(appId: string, goodId: string, holder: string): Promise<void>;
  giveBack(appId: string, goodId: string, holder: string): Promise<void>;
  clearReturn(appId: string, goodId: string, holder: string): Promise<void>;
}

export type PublishEffect = Extract<Effect, `PUBLISH_${string}`>;

/** What differs between catalog and marketplace redemptions. */
export interface SagaKind<R extends SagaRecord> {
  /** Ledger wording and log field, e.g. "catalog redemption". */
  name: string;
  /** The cause its debit has in the user's ledger (its refunds are REFUND). */
  debitCause: 'CATALOG_REDEMPTION' | 'MARKETPLACE_REDEMPTION';
  /** The redemptions, scoped by the redeeming app. */
  records: SagaRecordRepository<R>;
  stock: StockMoves;
  /** The good a redemption took stock from, under its owner's app, and how errors name it (itemId, listingId). */
  good(record: R): { appId: string; id: string; field: string };
  /** The domain events of a publish effect (ids derived from the record and the step). */
  events(record: R, effect: PublishEffect): DomainEvent[];
}

export interface SagaOptions {
  /** How long a worker owns a record it moved; the recovery pass takes over after, or as soon as the worker's process is dead. */
  leaseMs: number;
  liveness: HolderLiveness;
}

/**
 * The error a refusal answers, the first time and to every retry with the
 * same Idempotency-Key. STOCK_HELD is not a refusal but a conflict: units
 * held by redemptions in flight may come back, so the caller retries.
 */
export function refusalError(reason: FinalRefusal | 'STOCK_HELD', record: SagaRecord, good: { id: string; field: string }) {
  switch (reason) {
    case 'OUT_OF_STOCK':
      return refused('OUT_OF_STOCK', 'Out of stock.', { [good.field]: good.id });
    case 'ITEM_UNAVAILABLE':
      return refused('ITEM_UNAVAILABLE', 'It is not available for redemption (unpublished, deleted or expired).', { [good.field]: good.id });
    case 'INSUFFICIENT_BALANCE':
      return refused('INSUFFICIENT_BALANCE', 'The user does not have enough coins or tokens.', {
        userId: record.userId,
        coinCost: record.coinCost,
        tokenCost: record.tokenCost,
      });
    case 'STOCK_HELD':
      return stockHeldError({ [good.field]: good.id });
  }
}

const stockHeldError = (good: Record<string, string>) =>
  conflict('CONFLICT', 'None left right now, but some units are held by redemptions in progress and may be released; retry shortly.', {
    ...good,
    reason: 'STOCK_HELD',
  });

/** Pauses between tries while the last units are held by others (1.6 s in all). */
const HOLD_WAITS_MS = [25, 50, 100, 200, 400, 800];

const stockRefusal: Record<'OUT_OF_STOCK' | 'UNAVAILABLE' | 'HELD', StockRefusal> = {
  OUT_OF_STOCK: 'OUT_OF_STOCK',
  UNAVAILABLE: 'ITEM_UNAVAILABLE',
  HELD: 'STOCK_HELD',
};

/**
 * Runs the redemption saga (redemption-saga-machine.ts) for one kind of
 * redemption: reserve stock, debit, confirm; compensate on failure; and
 * the later moves (fulfil, cancel) and their follow-up work. Every move is
 * a conditional update from the state the machine names, so a request and
 * the recovery pass racing on one record cannot both move it.
 */
export class RedemptionSaga<R extends SagaRecord> {
  constructor(
    readonly kind: SagaKind<R>,
    private readonly account: BalanceAccount,
    private readonly logger: Logger,
    readonly options: SagaOptions,
  ) {}

  leaseFrom(now: Date): Date {
    return new Date(now.getTime() + this.options.leaseMs);
  }

  /**
   * Applies the machine's move for `input` with a conditional update, and
   * stores `events` with it (same update). Returns the record after it, or
   * null when the record was no longer in the state the move starts from
   * (someone else moved it first; the events were not stored).
   */
  async move(record: R, input: SagaInput, extra: Partial<R> = {}, events: DomainEvent[] = []): Promise<R | null> {
    const move = transition(record, input);
    if (!move) return null;
    const stored: DomainEvent[] = [];
    const moved = await this.kind.records.moveFrom(record, move.from, (now) => {
      // An open state is still being worked on by whoever moved it there: it takes the lease.
      const lease = move.set.open ? { leaseUntil: this.leaseFrom(now), holder: this.options.liveness.instanceId } : {};
      const set = { ...move.set, ...extra, updatedAt: now, ...lease } as Partial<R>;
      // The events of a state reached closed go with the move (its record as the move leaves it), before any others given.
      const after = { ...record, ...set } as R;
      stored.push(...(move.publish ?? []).flatMap((effect) => this.kind.events(after, effect)), ...events);
      return { set, events: stored };
    });
    if (moved && stored.length > 0) redemptionsMoved.inc({ kind: this.kind.name, state: String(move.set.state) });
    return moved;
  }

  /** Someone works on the record now: its lease runs and the process holding it is alive. */
  async isHeld(record: R, now = new Date()): Promise<boolean> {
    return isHeld(record, now, await this.holderAlive(record));
  }

  /** Whether the process holding the record's lease still beats; records made before holders were kept go by their lease alone. */
  holderAlive(record: R): Promise<boolean> {
    return record.holder ? this.options.liveness.isAlive(record.holder) : Promise.resolve(true);
  }

  /**
   * Takes over a record nobody works on (see isHeld: the caller checked);
   * null when someone else took it or it moved on. Conditional on the
   * lease read, so of two takers only one gets it.
   */
  claim(record: R, now = new Date()): Promise<R | null> {
    return this.kind.records.claim(record, this.leaseFrom(now), this.options.liveness.instanceId);
  }

  /** Gives up the lease so the next recovery pass retries at once, not after a full lease. */
  async releaseLease(record: R): Promise<void> {
    await this.kind.records
      .endLease(record)
      .catch((err: unknown) => this.logger.warn({ err, redemptionId: record._id }, 'could not release a lease; it runs out by itself'));
  }

  private operation(record: R, step: 'debit' | 'compensate' | 'refund'): BalanceOperation {
    return {
      // Derived from the redemption: a replay, by anyone, is the same operation.
      operationId: `${record._id}:${step}`,
      appId: record.appId,
      userId: record.userId,
      coins: record.coinCost,
      tokens: record.tokenCost,
      cause: step === 'debit' ? this.kind.debitCause : 'REFUND',
      memo: `${this.kind.name} ${record._id}${step === 'debit' ? '' : ` (${step === 'refund' ? 'refund' : 'undone'})`}`,
    };
  }

  private isFree(record: R): boolean {
    return record.coinCost === 0 && record.tokenCost === 0;
  }

  /** Stops before a step the recovery pass may already have undone. */
  private assertLease(record: R): void {
    if (Date.now() >= record.leaseUntil.getTime()) {
      throw unavailable('The redemption took too long; it is being undone. Retry.');
    }
  }

  /**
   * From a freshly recorded RESERVING redemption to CONFIRMED: reserve a
   * unit (unless `limitedStock` is false: the good was unlimited when
   * read), debit, confirm. On a refusal the redemption is compensated and
   * a 422 error thrown; when the incentive service does not answer it is
   * compensated as far as possible (the rest by the recovery pass) and
   * Unavailable thrown.
   */
  async acquire(record: R, limitedStock: boolean): Promise<{ record: R; balance: BalanceSnapshot | null }> {
    const good = this.kind.good(record);
    let stockTaken = false;
    if (limitedStock) {
      this.assertLease(record);
      const outcome = await this.takeWaitingForHolds(record, good);
      if (outcome === 'OUT_OF_STOCK' || outcome === 'UNAVAILABLE' || outcome === 'HELD') {
        const reason = stockRefusal[outcome];
        await this.move(record, { type: 'STOCK_REFUSED', reason });
        throw refusalError(reason, record, good);
      }
      stockTaken = outcome === 'TAKEN';
    }

    let balance: BalanceSnapshot | null = null;
    if (!this.isFree(record)) {
      this.assertLease(record);
      let outcome: DebitOutcome;
      try {
        outcome = await this.account.debit(this.operation(record, 'debit'));
      } catch (err) {
        this.logger.warn({ err, redemptionId: record._id }, 'debit outcome unknown; compensating');
        await this.failAndCompensate(record, { type: 'DEBIT_UNKNOWN' });
        throw unavailable('The balance service is unavailable; nothing was redeemed. Retry later.');
      }
      if (!outcome.ok) {
        await this.failAndCompensate(record, { type: 'DEBIT_REFUSED', insufficient: outcome.insufficient });
        if (outcome.insufficient) throw refusalError('INSUFFICIENT_BALANCE', record, good);
        throw outcome.error;
      }
      balance = outcome.balance;
    }

    // Confirmed and closed in one write, its event stored with it (see redemption-saga-machine.ts).
    const confirmed = await this.move(record, { type: 'DEBITED', stockTaken });
    if (!confirmed) {
      // The lease ran out and the recovery pass took over: it undoes the redemption.
      throw unavailable('The redemption took too long and is being undone. Retry.');
    }
    crashPoint('redemption.effects');
    if (stockTaken) await this.commitHold(confirmed, good);
    return { record: confirmed, balance };
  }

  /**
   * Makes a confirmed redemption's hold final (batched with the good's
   * other confirmations). Nothing waits on it for correctness: a hold left
   * behind (this write failed, or the process died first) is made final by
   * the recovery sweep, since its redemption is closed and confirmed.
   */
  private async commitHold(record: R, good: { appId: string; id: string }): Promise<void> {
    await this.kind.stock
      .commitSoon(good.appId, good.id, record._id)
      .catch((err: unknown) => this.logger.warn({ err, redemptionId: record._id }, 'hold not made final yet; the recovery sweep does it'));
  }

  /**
   * Takes a unit; when none is left but other redemptions hold some, waits
   * a moment for them to settle (a live holder confirms or gives its unit
   * back within milliseconds) and tries again, so the answer is final:
   * OUT_OF_STOCK once they are confirmed, a unit if one came back. Holds
   * still there after the wait (a holder that died, until the recovery
   * pass frees them) answer HELD: a conflict to retry, never OUT_OF_STOCK.
   */
  private async takeWaitingForHolds(record: R, good: { appId: string; id: string }) {
    let outcome = await this.kind.stock.take(good.appId, good.id, record._id);
    for (const delay of HOLD_WAITS_MS) {
      if (outcome !== 'HELD') break;
      await new Promise((resolve) => setTimeout(resolve, delay));
      this.assertLease(record);
      outcome = await this.kind.stock.take(good.appId, good.id, record._id);
    }
    return outcome;
  }

  private async failAndCompensate(record: R, input: SagaInput): Promise<void> {
    const failing = await this.move(record, input);
    if (!failing) return; // the recovery pass has it
    try {
      await this.compensate(failing);
    } catch (err) {
      this.logger.warn({ err, redemptionId: record._id }, 'compensation incomplete; the recovery pass finishes it');
      await this.releaseLease(failing);
    }
  }

  /** COMPENSATING → FAILED: the unit back in stock, the coins and tokens back in the balance. */
  async compensate(record: R): Promise<R | null> {
    const good = this.kind.good(record);
    for (const step of compensationSteps(record.debit)) {
      if (step === 'RELEASE_STOCK') {
        await this.kind.stock.release(good.appId, good.id, record._id);
      } else if (this.isFree(record)) {
        continue;
      } else if (step === 'CREDIT_BACK') {
        await this.account.credit(this.operation(record, 'compensate'));
      } else {
        // Replaying the debit by its id applies it at most once, so the answer says whether it is now applied.
        const replay = await this.account.debit(this.operation(record, 'debit'));
        await this.kind.records.recordDebit(record, replay.ok ? 'DONE' : 'REFUSED');
        if (replay.ok) await this.account.credit(this.operation(record, 'compensate'));
      }
    }
    return this.move(record, { type: 'COMPENSATED' });
  }

  /** Runs the follow-up of the record's state now; if that fails, the recovery pass runs it after the lease. */
  async settleOrLeave(record: R): Promise<R> {
    try {
      return (await this.runEffects(record)) ?? record;
    } catch (err) {
      this.logger.warn({ err, redemptionId: record._id }, 'follow-up incomplete; the recovery pass finishes it');
      await this.releaseLease(record);
      return record;
    }
  }

  /**
   * The follow-up work of the record's state (idempotent, in any order, so
   * side by side), then the record is closed, its events stored with that
   * move. Until then the record is open: after a crash the recovery pass
   * runs this again once the lease has run out.
   */
  async runEffects(record: R): Promise<R | null> {
    crashPoint('redemption.effects');
    const good = this.kind.good(record);
    const events: DomainEvent[] = [];
    const stockWork: Array<Promise<void>> = [];
    for (const effect of effectsOf(record.state)) {
      switch (effect) {
        case 'PUBLISH_CONFIRMED':
        case 'PUBLISH_FULFILLED':
        case 'PUBLISH_CANCELLED':
          events.push(...this.kind.events(record, effect));
          break;
        case 'COMMIT_STOCK':
          if (record.stockTaken) stockWork.push(this.kind.stock.commitSoon(good.appId, good.id, record._id));
          break;
        case 'CLEAR_RETURN_MARKER':
          if (record.stockTaken) stockWork.push(this.kind.stock.clearReturn(good.appId, good.id, record._id));
          break;
      }
    }
    // allSettled first, so no write is left running when one fails; then the first failure is raised.
    const results = await Promise.allSettled(stockWork);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    return this.move(record, { type: 'EFFECTS_DONE' }, {}, events);
  }

  /** CANCELLING → CANCELLED: refund by its own operation id, give the unit back (once), then the follow-up. */
  async finishCancel(record: R): Promise<R> {
    const good = this.kind.good(record);
    if (!this.isFree(record)) await this.account.credit(this.operation(record, 'refund'));
    if (record.stockTaken) await this.kind.stock.giveBack(good.appId, good.id, record._id);
    const cancelled = await this.move(record, { type: 'REFUNDED' });
    if (!cancelled) throw conflict('CONFLICT', 'The redemption changed meanwhile; read it again.');
    return this.settleOrLeave(cancelled);
  }
}
