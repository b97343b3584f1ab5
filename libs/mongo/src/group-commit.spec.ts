import { GroupCommit } from './group-commit';

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
