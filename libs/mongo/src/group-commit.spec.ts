import { GroupCommit, KeyedGroupCommit } from './group-commit';

describe('GroupCommit', () => {
  it('stores the callers of one tick with one flush and answers each with its own result', async () => {
    const flushes: number[][] = [];
    const commit = new GroupCommit<number, string>(async (items) => {
      flushes.push(items);
      return items.map((n) => `stored ${n}`);
    });
    const results = await Promise.all([1, 2, 3].map((n) => commit.add(n)));
    expect(results).toEqual(['stored 1', 'stored 2', 'stored 3']);
    expect(flushes).toEqual([[1, 2, 3]]);
  });

  it('never takes more than maxBatch items, nor runs more than `concurrency` flushes at once', async () => {
    let open = 0;
    let peak = 0;
    const sizes: number[] = [];
    const commit = new GroupCommit<number, number>(
      async (items) => {
        open += 1;
        peak = Math.max(peak, open);
        sizes.push(items.length);
        await new Promise((resolve) => setTimeout(resolve, 10));
        open -= 1;
        return items;
      },
      { maxBatch: 4, concurrency: 2 },
    );
    const results = await Promise.all(Array.from({ length: 20 }, (_, n) => commit.add(n)));
    expect(results).toEqual(Array.from({ length: 20 }, (_, n) => n));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(4);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(20);
    expect(peak).toBe(2);
  });

  it('gathers what arrives while a flush is in flight into the next one', async () => {
    const sizes: number[] = [];
    const commit = new GroupCommit<number, number>(
      async (items) => {
        sizes.push(items.length);
        await new Promise((resolve) => setTimeout(resolve, 20));
        return items;
      },
      { concurrency: 1 },
    );
    const first = commit.add(0);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const later = Array.from({ length: 10 }, (_, n) => commit.add(n + 1));
    await Promise.all([first, ...later]);
    expect(sizes).toEqual([1, 10]);
  });

  it('fails alone an item the flush gave no result for; the others keep theirs', async () => {
    const commit = new GroupCommit<number, string>(async (items) => items.slice(0, 2).map((n) => `stored ${n}`));
    const settled = await Promise.allSettled([1, 2, 3].map((n) => commit.add(n)));
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect(settled.slice(0, 2).map((s) => (s as PromiseFulfilledResult<string>).value)).toEqual(['stored 1', 'stored 2']);
    expect((settled[2] as PromiseRejectedResult).reason.message).toBe('the batch gave no result for this item');
  });

  it('fails every caller of a failed flush, and goes on with the next', async () => {
    let calls = 0;
    const commit = new GroupCommit<number, number>(async (items) => {
      calls += 1;
      if (calls === 1) throw new Error('database down');
      return items;
    });
    const failed = await Promise.allSettled([commit.add(1), commit.add(2)]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    await expect(commit.add(3)).resolves.toBe(3);
  });
});

describe('GroupCommit with maxQueued', () => {
  it('turns items away at once, with overloaded(), while maxQueued are already waiting', async () => {
    let release: () => void = () => undefined;
    const commit = new GroupCommit<number, number>(
      async (items) => {
        await new Promise<void>((resolve) => (release = resolve));
        return items;
      },
      { concurrency: 1, maxQueued: 2, overloaded: () => new Error('busy') },
    );
    const inFlight = commit.add(0);
    await new Promise((resolve) => setImmediate(resolve));
    const waiting = [commit.add(1), commit.add(2)];
    await expect(commit.add(3)).rejects.toThrow('busy');
    release();
    await expect(inFlight).resolves.toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await expect(Promise.all(waiting)).resolves.toEqual([1, 2]);
    // Room again once the waiting ones went out.
    const later = commit.add(4);
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await expect(later).resolves.toBe(4);
  });
});

describe('KeyedGroupCommit', () => {
  it('flushes each key with its own items, and forgets a key once it is idle', async () => {
    const flushes: Array<[string, number[]]> = [];
    const commit = new KeyedGroupCommit<number, string>(async (key, items) => {
      flushes.push([key, items]);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return items.map((n) => `${key}:${n}`);
    });
    const results = await Promise.all([commit.add('a', 1), commit.add('b', 2), commit.add('a', 3)]);
    expect(results).toEqual(['a:1', 'b:2', 'a:3']);
    expect(flushes).toEqual([
      ['a', [1, 3]],
      ['b', [2]],
    ]);
    expect(commit.size).toBe(0);
  });

  it('keeps a key while more arrives for it, and starts it afresh after it went idle', async () => {
    const sizes: number[] = [];
    const commit = new KeyedGroupCommit<number, number>(
      async (_key, items) => {
        sizes.push(items.length);
        await new Promise((resolve) => setTimeout(resolve, 10));
        return items;
      },
      { concurrency: 1 },
    );
    const first = commit.add('k', 0);
    await new Promise((resolve) => setTimeout(resolve, 2));
    const more = [1, 2, 3].map((n) => commit.add('k', n));
    expect(commit.size).toBe(1);
    await Promise.all([first, ...more]);
    expect(sizes).toEqual([1, 3]);
    expect(commit.size).toBe(0);
    await expect(commit.add('k', 4)).resolves.toBe(4);
    expect(commit.size).toBe(0);
  });
});
