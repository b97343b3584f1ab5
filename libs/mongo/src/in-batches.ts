/**
 * The items of `items` in arrays of at most `size`, each yielded once it is
 * full (or the items end): an export's rows, sent a message of many at a
 * time, with only one batch in memory.
 */
export async function* inBatches<T>(items: AsyncIterable<T>, size: number): AsyncIterable<T[]> {
  let batch: T[] = [];
  for await (const item of items) {
    batch.push(item);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * Two streams each in `before`'s order, as one in that order (the smaller
 * first; on a tie, `a`'s): a list made of two queries, such as a user's
 * records as referrer and as referee.
 */
export async function* mergeSorted<T>(a: AsyncIterable<T>, b: AsyncIterable<T>, before: (x: T, y: T) => boolean): AsyncIterable<T> {
  const left = a[Symbol.asyncIterator]();
  const right = b[Symbol.asyncIterator]();
  let [x, y] = await Promise.all([left.next(), right.next()]);
  while (!x.done || !y.done) {
    if (y.done || (!x.done && !before(y.value, x.value))) {
      yield x.value as T;
      x = await left.next();
    } else {
      yield y.value;
      y = await right.next();
    }
  }
}
