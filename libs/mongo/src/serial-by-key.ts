/**
 * Runs work for one key (a document, a user) one call after another within
 * this process; different keys run side by side. A failed call does not
 * hold up the next.
 *
 * Why services need it: FerretDB v1, the development and test database,
 * applies every update as a read of the whole document and a write of it
 * back, with nothing in between to stop another update, so two concurrent
 * conditional updates of one document can both "match" and $inc/$push lose
 * each other's changes. Serialising a process's writes to a document makes
 * them atomic on FerretDB's single replica; on MongoDB single-document
 * updates are atomic anyway, and this only orders a process's own writes.
 */
export class SerialByKey {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    await previous;
    try {
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /**
   * Runs `work` holding the turn of every key at once (a write to many
   * documents in one statement, beside writes to each of them). Keys are
   * taken in sorted order, so two callers of runAll never wait for each
   * other in a circle; run() holds one key and waits for none while it does.
   */
  runAll<T>(keys: readonly string[], work: () => Promise<T>): Promise<T> {
    const sorted = [...new Set(keys)].sort();
    const take = (i: number): Promise<T> => (i === sorted.length ? work() : this.run(sorted[i], () => take(i + 1)));
    return take(0);
  }
}
