interface Pending<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (err: unknown) => void;
}

export interface GroupCommitOptions {
  /** Most items one flush takes; the rest wait for the next. */
  maxBatch?: number;
  /** Flushes allowed in flight at once (each with its own items). */
  concurrency?: number;
}

/**
 * Group commit: callers hand in one item each and wait; the items that
 * arrive together (in the same turn of the event loop, or while earlier
 * flushes are in flight) are stored by one flush, and each caller's
 * promise settles with that flush, so nothing is acknowledged before it
 * is stored. Under load many requests share one insertMany and one
 * round trip instead of one each; alone, a request waits one tick.
 *
 * `flush` returns one result per item, in order; if it throws, every
 * caller of that batch gets the error.
 */
export class GroupCommit<T, R> {
  private queue: Array<Pending<T, R>> = [];
  private inFlight = 0;
  private scheduled = false;
  private readonly maxBatch: number;
  private readonly concurrency: number;

  constructor(
    private readonly flush: (items: T[]) => Promise<R[]>,
    options: GroupCommitOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 500;
    this.concurrency = options.concurrency ?? 2;
  }

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.concurrency) return;
    this.scheduled = true;
    // One tick: the callers of this turn of the event loop join the batch.
    setImmediate(() => {
      this.scheduled = false;
      this.run();
    });
  }

  private run(): void {
    while (this.queue.length > 0 && this.inFlight < this.concurrency) {
      const batch = this.queue.splice(0, this.maxBatch);
      this.inFlight += 1;
      void this.commit(batch).finally(() => {
        this.inFlight -= 1;
        if (this.queue.length > 0) this.schedule();
      });
    }
  }

  private async commit(batch: Array<Pending<T, R>>): Promise<void> {
    try {
      const results = await this.flush(batch.map((p) => p.item));
      batch.forEach((p, i) => p.resolve(results[i]));
    } catch (err) {
      for (const p of batch) p.reject(err);
    }
  }
}
