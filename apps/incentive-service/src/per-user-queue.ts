/**
 * Runs the writers of one user one after another within this process.
 * Correctness never depends on it (the ledger's compare-and-set does that,
 * across replicas too); it only spares concurrent writers of the same user
 * the wasted work of losing a race and planning again.
 */
export class PerUserQueue {
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
