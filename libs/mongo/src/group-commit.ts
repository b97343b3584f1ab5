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
  /** Called when the last flush in flight ends with nothing left queued. */
  onIdle?: () => void;
  /**
   * Most items waiting for a flush (not counting those in flight); past it
   * `add` fails at once with `overloaded()`, so a slow flush sheds load
   * instead of queueing without bound. Unbounded when unset.
   */
  maxQueued?: number;
  overloaded?: () => Error;
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
 * caller of that batch gets the error, so a flush answers an item's own
 * failure as that item's result (see ItemOutcome) and throws only for what
 * the batch shares. An item it leaves without a result is rejected alone.
 */
export class GroupCommit<T, R> {
  private queue: Array<Pending<T, R>> = [];
  private inFlight = 0;
  private scheduled = false;
  private readonly maxBatch: number;
  private readonly concurrency: number;
  private readonly onIdle?: () => void;
  private readonly maxQueued: number;
  private readonly overloaded: () => Error;

  constructor(
    private readonly flush: (items: T[]) => Promise<R[]>,
    options: GroupCommitOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 500;
    this.concurrency = options.concurrency ?? 2;
    this.onIdle = options.onIdle;
    this.maxQueued = options.maxQueued ?? Infinity;
    this.overloaded = options.overloaded ?? (() => new Error('too many items waiting'));
  }

  add(item: T): Promise<R> {
    if (this.queue.length >= this.maxQueued) return Promise.reject(this.overloaded());
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
        else if (this.inFlight === 0 && !this.scheduled) this.onIdle?.();
      });
    }
  }

  private async commit(batch: Array<Pending<T, R>>): Promise<void> {
    let results: R[];
    try {
      results = await this.flush(batch.map((p) => p.item));
      if (!Array.isArray(results)) throw new Error('the batch gave no results');
    } catch (err) {
      for (const p of batch) p.reject(err);
      return;
    }
    // A flush that answers fewer items than it took fails those items alone
    // (a caller must never be resolved with nothing); the others stand.
    batch.forEach((p, i) => (i < results.length ? p.resolve(results[i]) : p.reject(new Error('the batch gave no result for this item'))));
  }
}

/**
 * One GroupCommit per key, for batches that must not mix (one board, one
 * app): items of a key are flushed together, keys independently. A key's
 * batcher is dropped once it has nothing queued or in flight, so keys seen
 * once do not accumulate.
 */
export class KeyedGroupCommit<T, R> {
  private readonly groups = new Map<string, GroupCommit<T, R>>();

  constructor(
    private readonly flush: (key: string, items: T[]) => Promise<R[]>,
    private readonly options: GroupCommitOptions = {},
  ) {}

  add(key: string, item: T): Promise<R> {
    let group = this.groups.get(key);
    if (!group) {
      const created: GroupCommit<T, R> = new GroupCommit((items) => this.flush(key, items), {
        ...this.options,
        onIdle: () => {
          if (this.groups.get(key) === created) this.groups.delete(key);
        },
      });
      group = created;
      this.groups.set(key, group);
    }
    return group.add(item);
  }

  /** Keys with a batcher right now (for tests). */
  get size(): number {
    return this.groups.size;
  }
}
