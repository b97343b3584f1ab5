/**
 * Per-app definitions (actions, levels, milestones) are read on every event
 * but change rarely. Entries live a short time and are dropped at once when
 * this process changes them; another replica's change shows within ttlMs.
 * A failed load is not kept.
 */
export class ShortLivedCache<V> {
  private readonly entries = new Map<string, { value: Promise<V>; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 5_000,
  ) {}

  get(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit && hit.until > Date.now()) return hit.value;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    const value = load();
    this.entries.set(key, { value, until: Date.now() + this.ttlMs });
    value.catch(() => this.entries.delete(key));
    return value;
  }

  /** What this process just wrote: the next get answers it (for ttlMs) without a load. */
  set(key: string, value: V): void {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { value: Promise.resolve(value), until: Date.now() + this.ttlMs });
  }

  invalidate(key: string): void {
    this.entries.delete(key);
  }
}
