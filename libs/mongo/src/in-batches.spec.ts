import { inBatches, mergeSorted } from './in-batches';

async function* from<T>(items: T[]): AsyncIterable<T> {
  for (const item of items) yield item;
}

const all = async <T>(items: AsyncIterable<T>) => {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
};

describe('streams of an export', () => {
  it('cuts a stream into batches of at most the size, the last one short, and nothing for nothing', async () => {
    expect(await all(inBatches(from([1, 2, 3, 4, 5]), 2))).toEqual([[1, 2], [3, 4], [5]]);
    expect(await all(inBatches(from([1, 2]), 2))).toEqual([[1, 2]]);
    expect(await all(inBatches(from([]), 2))).toEqual([]);
  });

  it('merges two sorted streams into one in the same order, the first one first on a tie', async () => {
    const newestFirst = (x: [number, string], y: [number, string]) => x[0] > y[0];
    const merged = await all(
      mergeSorted(
        from<[number, string]>([[9, 'a'], [5, 'a'], [5, 'a2'], [1, 'a']]),
        from<[number, string]>([[7, 'b'], [5, 'b'], [0, 'b']]),
        newestFirst,
      ),
    );
    expect(merged).toEqual([[9, 'a'], [7, 'b'], [5, 'a'], [5, 'a2'], [5, 'b'], [1, 'a'], [0, 'b']]);
    expect(await all(mergeSorted(from([]), from([3, 2]), (x, y) => x > y))).toEqual([3, 2]);
  });
});
