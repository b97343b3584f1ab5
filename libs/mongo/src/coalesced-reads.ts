import { KeyedGroupCommit } from './group-commit';

/**
 * Reads of one key (one document) that arrive together share one read:
 * under load a popular document (the good every redemption reads) costs
 * one read per round trip instead of one per request.
 *
 * Coalescing, not caching: a caller only joins a read that has not been
 * sent yet (one read per key in flight; whoever arrives meanwhile waits
 * for the next), so every answer comes from a read made after its caller
 * asked, and sees every write acknowledged before that. Alone, a read
 * waits one turn of the event loop. Callers share the answer: they must
 * not change it.
 */
export class CoalescedReads<T> {
  private readonly reads = new KeyedGroupCommit<() => Promise<T>, T>(
    async (_key, loads) => {
      const value = await loads[0]();
      return loads.map(() => value);
    },
    { concurrency: 1 },
  );

  /** `load` reads the key's value; the callers of one batch share the first one's. */
  read(key: string, load: () => Promise<T>): Promise<T> {
    return this.reads.add(key, load);
  }
}
