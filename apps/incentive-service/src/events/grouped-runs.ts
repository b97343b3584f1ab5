/**
 * Group commit per user: work submitted for a key while a run for that key
 * is in progress is collected, and processed as one batch when the run
 * ends. A hot user's concurrent events then cost a couple of balance
 * writes instead of one each, and nobody waits behind a long queue.
 */
export class GroupedRuns<T> {
  private readonly groups = new Map<string, { pending: T[]; waiters: Array<{ resolve: () => void; reject: (err: unknown) => void }> }>();

  submit(key: string, items: T[], run: (batch: T[]) => Promise<void>): Promise<void> {
    return new Promise((resolve, reject) => {
      let group = this.groups.get(key);
      const idle = !group;
      if (!group) {
        group = { pending: [], waiters: [] };
        this.groups.set(key, group);
      }
      group.pending.push(...items);
      group.waiters.push({ resolve, reject });
      if (idle) void this.drain(key, group, run);
    });
  }

  private async drain(key: string, group: { pending: T[]; waiters: Array<{ resolve: () => void; reject: (err: unknown) => void }> }, run: (batch: T[]) => Promise<void>) {
    while (group.pending.length > 0) {
      const batch = group.pending;
      const waiters = group.waiters;
      group.pending = [];
      group.waiters = [];
      try {
        await run(batch);
        for (const w of waiters) w.resolve();
      } catch (err) {
        for (const w of waiters) w.reject(err);
      }
    }
    this.groups.delete(key);
  }
}
