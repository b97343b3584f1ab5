import type { FilterQuery, UpdateQuery } from 'mongoose';
import type { AppScoped } from './app-scoped';

interface Waiter {
  resolve: () => void;
  reject: (err: unknown) => void;
}

type Batch<T> =
  | { kind: 'inc'; inc: Record<string, number>; setOnInsert?: Partial<T>; waiters: Waiter[] }
  | { kind: 'update'; update: UpdateQuery<T>; waiters: Waiter[] }
  | { kind: 'work'; work: () => Promise<void>; waiters: Waiter[] };

interface DocumentQueue<T> {
  appId: string;
  filter: FilterQuery<T>;
  batches: Array<Batch<T>>;
  running: boolean;
}

/**
 * Writes to one document, one at a time per process, with counter
 * increments coalesced: while a write to a document is in flight, the
 * increments that arrive for it are summed into the next write. Every
 * caller's promise settles with the write that carries its change, so
 * nothing is acknowledged before it is stored.
 *
 * Two reasons. Under load a hot counter document (a campaign's clicks)
 * costs about one write per round trip instead of one per request. And
 * FerretDB v1 applies every update as a read of the whole document and a
 * write of all of it back, so concurrent updates of one document lose
 * each other's changes ($inc included); keeping a process's writes to a
 * document serial avoids that. MongoDB's updates are atomic, so several
 * replicas are safe there; FerretDB is the single-replica development and
 * test database.
 */
export class DocumentWriteQueue<T extends { appId: string }> {
  private readonly queues = new Map<string, DocumentQueue<T>>();

  /**
   * `spacingMs`: a document's writes start at least this far apart, and
   * what arrives in between gathers into the next one. For counters nobody
   * waits for (an engine's hourly figures), so a hot document costs a few
   * writes a second whatever the load; a write to a document that was idle
   * still goes at once. Leave it 0 where callers wait for their write.
   */
  constructor(
    private readonly scoped: AppScoped<T>,
    private readonly options: { spacingMs?: number } = {},
  ) {}

  /**
   * $inc on the document `filter` names (a unique key, fields in a fixed
   * order); created on first use, with `setOnInsert` (the same for every
   * increment of the document).
   */
  increment(appId: string, filter: FilterQuery<T>, inc: Record<string, number>, setOnInsert?: Partial<T>): Promise<void> {
    return this.enqueue(appId, filter, (queue, waiter) => {
      const last = queue.batches[queue.batches.length - 1];
      if (last?.kind === 'inc') {
        for (const [field, amount] of Object.entries(inc)) last.inc[field] = (last.inc[field] ?? 0) + amount;
        last.waiters.push(waiter);
      } else {
        queue.batches.push({ kind: 'inc', inc: { ...inc }, setOnInsert, waiters: [waiter] });
      }
    });
  }

  /** Any other update of the document, in order with the increments around it. */
  update(appId: string, filter: FilterQuery<T>, update: UpdateQuery<T>): Promise<void> {
    return this.enqueue(appId, filter, (queue, waiter) => queue.batches.push({ kind: 'update', update, waiters: [waiter] }));
  }

  /**
   * A write of the document made some other way (a conditional update,
   * another process's leftovers cleared), run in order with this queue's
   * writes to it and never beside one. Resolves with what `work` returns.
   */
  exclusive<R>(appId: string, filter: FilterQuery<T>, work: () => Promise<R>): Promise<R> {
    let result: R;
    const run = async () => {
      result = await work();
    };
    return this.enqueue(appId, filter, (queue, waiter) => queue.batches.push({ kind: 'work', work: run, waiters: [waiter] })).then(() => result);
  }

  private enqueue(appId: string, filter: FilterQuery<T>, add: (queue: DocumentQueue<T>, waiter: Waiter) => void): Promise<void> {
    const key = `${appId}\u0000${JSON.stringify(filter)}`;
    return new Promise<void>((resolve, reject) => {
      let queue = this.queues.get(key);
      if (!queue) {
        queue = { appId, filter, batches: [], running: false };
        this.queues.set(key, queue);
      }
      add(queue, { resolve, reject });
      if (!queue.running) void this.drain(key, queue);
    });
  }

  private async drain(key: string, queue: DocumentQueue<T>): Promise<void> {
    queue.running = true;
    for (let batch = queue.batches.shift(); batch; batch = queue.batches.shift()) {
      const started = Date.now();
      try {
        if (batch.kind === 'inc') await this.scoped.increment(queue.appId, queue.filter, batch.inc, batch.setOnInsert);
        else if (batch.kind === 'update') await this.scoped.updateOne(queue.appId, queue.filter, batch.update);
        else await batch.work();
        for (const waiter of batch.waiters) waiter.resolve();
      } catch (err) {
        for (const waiter of batch.waiters) waiter.reject(err);
      }
      // Still running while the spacing lasts, so that what arrives meanwhile queues up and gathers.
      const wait = started + (this.options.spacingMs ?? 0) - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    queue.running = false;
    this.queues.delete(key);
  }
}
