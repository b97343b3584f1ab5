import { GroupedRuns } from './grouped-runs';

describe('grouped runs (group commit per key)', () => {
  it('runs the first submission at once and everything that arrives meanwhile as one batch', async () => {
    const runs = new GroupedRuns<number>();
    const batches: Record<string, number[][]> = { u: [], v: [] };
    const runFor = (key: string) => async (batch: number[]) => {
      batches[key].push(batch);
      await new Promise((r) => setTimeout(r, 20));
    };
    await Promise.all([
      runs.submit('u', [1], runFor('u')),
      runs.submit('u', [2], runFor('u')),
      runs.submit('u', [3, 4], runFor('u')),
      runs.submit('v', [9], runFor('v')),
    ]);
    expect(batches).toEqual({ u: [[1], [2, 3, 4]], v: [[9]] });
  });

  it('fails every submitter of a failed batch, and goes on with the next', async () => {
    const runs = new GroupedRuns<string>();
    let calls = 0;
    const run = async (batch: string[]) => {
      calls += 1;
      await new Promise((r) => setTimeout(r, 10));
      if (batch.includes('bad')) throw new Error('boom');
    };
    const first = runs.submit('k', ['ok'], run);
    const second = runs.submit('k', ['bad'], run);
    const third = runs.submit('k', ['also'], run);
    await expect(first).resolves.toBeUndefined();
    await expect(second).rejects.toThrow('boom');
    await expect(third).rejects.toThrow('boom');
    expect(calls).toBe(2);
    await expect(runs.submit('k', ['later'], run)).resolves.toBeUndefined();
  });
});
