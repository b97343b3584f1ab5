import { newId } from '@ris/mongo';
import type { AttemptResult } from './delivery-attempt.model';
import type { DeliveryDoc } from './delivery.model';
import type { DeliveryState } from './delivery.repository';

/** Stores deliveries; answers those it stored (a duplicate of an earlier fan-out's is not). */
export type WriteDeliveries = (deliveries: DeliveryDoc[]) => Promise<DeliveryDoc[]>;

/**
 * A fan-out's deliveries whose insert waits for their first attempts, for
 * at most a short window. An attempt that ends inside it is written with
 * its delivery, in the same row: the outcome in the document's state and
 * the attempt itself as its `firstAttempt`. A delivery that succeeds at
 * once then costs one row of a batched insert, where storing it first and
 * recording after cost an update per delivery (the dearest command of the
 * path: FerretDB turns an update of many documents into one UPDATE each)
 * and a row of the attempt log.
 *
 * Nothing is acknowledged before the insert: the event that caused these
 * deliveries stays unacknowledged until then, so a crash before it
 * redelivers the event and the deliveries are sent again with the same
 * `webhook-id` (at least once, as always). Attempts still running when the
 * window closes, and deliveries not started yet, are stored under their
 * lease as before and recorded by update when they end.
 */
export class PendingInsert {
  private open = true;
  private waitingFor: number;
  private readonly timer?: NodeJS.Timeout;
  private start!: () => void;
  /** The deliveries this insert stored. */
  readonly stored: Promise<Set<DeliveryDoc>>;

  /**
   * `attempting`: how many of `deliveries` are handed to the dispatcher
   * before the insert; it runs when all of them have ended, or after
   * `windowMs`, or when flush() asks (at once when there are none).
   */
  constructor(
    private readonly deliveries: DeliveryDoc[],
    attempting: number,
    windowMs: number,
    write: WriteDeliveries,
  ) {
    this.stored = new Promise<void>((resolve) => (this.start = resolve)).then(async () => new Set(await write(this.deliveries)));
    this.waitingFor = attempting;
    if (attempting <= 0) this.flush();
    else {
      this.timer = setTimeout(() => this.flush(), windowMs);
      this.timer.unref();
    }
  }

  /** Stores them now (something needs the documents: a renewal, a release, a stop); the deliveries stored. */
  flush(): Promise<Set<DeliveryDoc>> {
    if (this.open) {
      this.open = false;
      if (this.timer) clearTimeout(this.timer);
      this.start();
    }
    return this.stored;
  }

  /**
   * The first attempt of `delivery` (one of these) ended: while the insert
   * has not begun, its state and the attempt go into the document, and the
   * answer is whether the insert stored it. Undefined once the insert has
   * begun: the outcome is then an update of the stored document, as for
   * any attempt.
   */
  absorb(delivery: DeliveryDoc, state: DeliveryState, result: AttemptResult): Promise<boolean> | undefined {
    if (!this.open) return undefined;
    Object.assign(delivery, state, { attempts: delivery.attempts + 1, firstAttempt: { _id: newId('wha'), ...result } });
    this.waitingFor -= 1;
    if (this.waitingFor <= 0) void this.flush();
    return this.stored.then((stored) => stored.has(delivery));
  }
}
