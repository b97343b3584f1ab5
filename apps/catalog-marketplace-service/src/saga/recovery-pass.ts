import type { Logger } from '@ris/logging';
import { PeriodicRecovery, recoverIsolated, takeOverAbandoned, type RecoveryOptions } from '@ris/service-runtime';
import { recoveryAction, type RecoveryAction } from './redemption-saga-machine';
import type { RedemptionSaga } from './redemption-saga';
import type { SagaRecord } from './saga-record';
import type { SagaRecordRepository } from './saga-record.repository';
import type { Good } from '../goods/good.repository';
import type { StockCounter } from '../goods/stock-counter';

export type { RecoveryOptions };

const RECOVERY_FAILED = 'recovery of a redemption failed; will retry';

/** What the pass does for each kind of redemption (a SagaRecovery). */
export interface Recoverable {
  recoverRecords(batchSize: number): Promise<void>;
  sweepMarkers(batchSize: number): Promise<void>;
}

/**
 * Finishes or undoes what a request could not: redemptions left in an
 * intermediate state (or with follow-up owed) past their lease are
 * compensated (RESERVING, COMPENSATING), finished (CANCELLING) or have
 * their follow-up run; then stock markers nobody will clear (their
 * redemption closed without them) are resolved from the redemption's
 * final state. Every step is
 * idempotent and claimed by lease, so each replica runs the pass. It runs
 * at start-up and every intervalMs; it is a system job across apps, and
 * handles each record under that record's own appId.
 */
export class RecoveryPass extends PeriodicRecovery {
  constructor(
    private readonly kinds: Recoverable[],
    logger: Logger,
    options: RecoveryOptions,
  ) {
    super(logger, { ...options, runAtStart: true });
  }

  async runOnce(): Promise<void> {
    for (const kind of this.kinds) {
      await kind.recoverRecords(this.batchSize);
      await kind.sweepMarkers(this.batchSize);
    }
  }
}

/** The recovery of one kind of redemption: its saga, and the goods its reservations mark. */
export class SagaRecovery<R extends SagaRecord, G extends Good> implements Recoverable {
  constructor(
    readonly name: string,
    private readonly saga: RedemptionSaga<R>,
    private readonly goods: StockCounter<G>,
    private readonly logger: Logger,
  ) {}

  private get records(): SagaRecordRepository<R> {
    return this.saga.kind.records;
  }

  async recoverRecords(batchSize: number): Promise<void> {
    const now = new Date();
    // Every open record, not only those past their lease: one whose process
    // died is taken over at once (its holds released within seconds, not
    // after a full lease).
    const open = await this.records.openAcrossApps(batchSize);
    await takeOverAbandoned(this.logger, RECOVERY_FAILED, open, {
      owed: async (record) => {
        const action = recoveryAction(record, now, await this.saga.holderAlive(record));
        return action === 'NONE' || action === 'WAIT' ? null : action;
      },
      // null: another replica, or the request itself, got there first
      takeOver: (record) => this.saga.claim(record, now),
      perform: (record, action) => this.perform(record, action),
      giveBack: (record) => this.saga.releaseLease(record),
      about: (record, action) => ({ kind: this.name, redemptionId: record._id, action }),
    });
  }

  private async perform(record: R, action: RecoveryAction): Promise<void> {
    switch (action) {
      case 'ABANDON': {
        const failing = await this.saga.move(record, { type: 'ABANDONED' });
        if (failing) await this.saga.compensate(failing);
        this.logger.info({ kind: this.name, redemptionId: record._id }, 'abandoned redemption undone');
        return;
      }
      case 'COMPENSATE':
        await this.saga.compensate(record);
        this.logger.info({ kind: this.name, redemptionId: record._id }, 'interrupted compensation finished');
        return;
      case 'FINISH_CANCEL':
        await this.saga.finishCancel(record);
        return;
      case 'RUN_EFFECTS':
        await this.saga.runEffects(record);
        return;
      default:
        return;
    }
  }

  /**
   * Stock markers whose redemption is closed, which nobody else will clear:
   * a confirmed redemption's hold (its follow-up was cut short) is made
   * final (dropped, the unit stays taken), in one write per good; a hold of
   * a FAILED redemption (a request that stalled past its lease and reserved
   * after the redemption was undone) is released; a return marker is
   * dropped. Open redemptions are left to their own recovery. A good left
   * with no marker is unmarked.
   * Records are looked up by id alone: the holder's id is all a marker
   * knows, and a listing's holders belong to other apps.
   */
  async sweepMarkers(batchSize: number): Promise<void> {
    const goods = await this.goods.marked(batchSize);
    for (const good of goods) {
      await this.isolated({ goodId: good._id }, async () => {
        const holders = [...new Set([...good.stockHolds, ...good.stockReturns])];
        // One read by lone _id per holder (usually none or a few): FerretDB
        // answers those from an index, but filters an $in by reading every record.
        const found = await Promise.all(holders.map((id) => this.records.byIdAcrossApps(id)));
        const records = found.filter((r): r is NonNullable<typeof r> => r !== null);
        const byId = new Map(records.map((r) => [r._id, r]));
        const closed = (holder: string) => !byId.get(holder)?.open;
        const final = good.stockHolds.filter((h) => closed(h) && byId.has(h) && byId.get(h)!.state !== 'FAILED');
        const undone = good.stockHolds.filter((h) => closed(h) && !final.includes(h));
        await this.goods.commit(good.appId, good._id, final);
        for (const holder of undone) {
          await this.goods.release(good.appId, good._id, holder);
          this.logger.info({ kind: this.name, goodId: good._id, holder }, 'stray stock hold released');
        }
        for (const holder of good.stockReturns.filter(closed)) await this.goods.clearReturn(good.appId, good._id, holder);
        await this.goods.unmarkIfClear(good.appId, good._id);
      });
    }
  }

  /** One record's failure (the incentive service still down, say) is logged and does not stop the others. */
  private isolated(about: Record<string, string>, work: () => Promise<unknown>): Promise<void> {
    return recoverIsolated(this.logger, { kind: this.name, ...about }, RECOVERY_FAILED, work);
  }
}
