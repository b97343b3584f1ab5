/**
 * Runs work for one document at a time within this process.
 *
 * FerretDB v1, the development and test database, applies every update as
 * a read of the whole document and a write of it back, with nothing in
 * between to stop another update: two concurrent conditional updates of
 * one document can both "match" (30 concurrent `{inventory: {$gt: 0}}`
 * decrements of a count of 5 succeed 19 times there), and $inc/$push lose
 * each other's changes. Every write this service makes to a good or a
 * redemption goes through here, which makes each conditional update atomic
 * on FerretDB's single replica. On MongoDB single-document updates are
 * atomic anyway, across any number of replicas, and this only orders a
 * process's own writes. Held for one database operation, never across a
 * call to another service.
 */
export class PerDocumentLock {
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
}
