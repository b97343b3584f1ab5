import { Schema, type Model } from 'mongoose';
import { testDatabase } from '@ris/testing';
import { AppScoped } from './app-scoped';
import { isDuplicateKeyError } from './connect-mongo';
import { DocumentWriteQueue } from './document-write-queue';
import { OnceMarkers } from './once-markers';

interface CounterDoc {
  appId: string;
  key: string;
  n?: number;
  m?: number;
  label?: string;
}

// Against the real development database (FerretDB v1), whose conditional
// updates and $inc are a read then a write: these are the tools that stay
// correct there under concurrency (and on MongoDB).
describe('concurrent writes', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let counters: AppScoped<CounterDoc>;

  beforeAll(async () => {
    db = await testDatabase('mongo');
    const schema = new Schema<CounterDoc>({ appId: String, key: String, n: Number, m: Number, label: String }, { collection: 'counters' });
    schema.index({ appId: 1, key: 1 }, { unique: true });
    const model: Model<CounterDoc> = db.model<CounterDoc>('Counter', schema);
    await model.init();
    counters = new AppScoped(model);
  });

  afterAll(() => db.drop());

  it('gives exactly one of many concurrent callers the first marker, per app', async () => {
    const once = new OnceMarkers(db);
    const results = await Promise.all(Array.from({ length: 25 }, () => once.first('app_a', 'reward:1:left:APPROVED', { to: 'PAID' })));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await once.first('app_b', 'reward:1:left:APPROVED')).toBe(true);
    expect((await once.get('app_a', 'reward:1:left:APPROVED'))?.data).toEqual({ to: 'PAID' });
  });

  it('loses no increment of one document under concurrency, in fewer writes', async () => {
    const queue = new DocumentWriteQueue(counters);
    const spy = jest.spyOn(counters, 'increment');
    await Promise.all(Array.from({ length: 200 }, (_, i) => queue.increment('app_a', { key: 'hot' }, i % 2 ? { n: 1 } : { n: 1, m: 2 })));
    const doc = await counters.findOne('app_a', { key: 'hot' });
    expect(doc).toMatchObject({ n: 200, m: 200 });
    expect(spy.mock.calls.length).toBeLessThan(200);
    spy.mockRestore();
  });

  it('spaces the writes of a document when asked: an idle one goes at once, what follows within the spacing gathers into one', async () => {
    const queue = new DocumentWriteQueue(counters, { spacingMs: 1_000 });
    const spy = jest.spyOn(counters, 'increment');
    const started = Date.now();
    await queue.increment('app_a', { key: 'spaced' }, { n: 1 });
    const firstLanded = Date.now() - started;
    const later: Array<Promise<void>> = [];
    for (let i = 0; i < 5; i += 1) {
      later.push(queue.increment('app_a', { key: 'spaced' }, { n: 1, m: 1 }));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await Promise.all(later);
    expect(firstLanded).toBeLessThan(1_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(spy.mock.calls.length).toBe(2);
    expect(await counters.findOne('app_a', { key: 'spaced' })).toMatchObject({ n: 6, m: 5 });
    spy.mockRestore();
  });

  it('keeps other updates in order with the increments around them', async () => {
    const queue = new DocumentWriteQueue(counters);
    await Promise.all([
      queue.increment('app_a', { key: 'mixed' }, { n: 1 }),
      queue.update('app_a', { key: 'mixed' }, { $set: { label: 'set once' } }),
      ...Array.from({ length: 50 }, () => queue.increment('app_a', { key: 'mixed' }, { n: 1 })),
    ]);
    expect(await counters.findOne('app_a', { key: 'mixed' })).toMatchObject({ n: 51, label: 'set once' });
  });

  it('runs a write made another way between the queued ones, never beside one, and returns its result', async () => {
    const queue = new DocumentWriteQueue(counters);
    // A read-then-write (as FerretDB runs a conditional update) that would lose the increments running beside it.
    const readThenWrite = async () => {
      const doc = await counters.findOne('app_a', { key: 'exclusive' });
      await new Promise((resolve) => setTimeout(resolve, 20));
      await counters.updateOne('app_a', { key: 'exclusive' }, { $set: { n: (doc?.n ?? 0) + 100 } });
      return 'done';
    };
    const results = await Promise.all([
      ...Array.from({ length: 20 }, () => queue.increment('app_a', { key: 'exclusive' }, { n: 1 })),
      queue.exclusive('app_a', { key: 'exclusive' }, readThenWrite),
      ...Array.from({ length: 20 }, () => queue.increment('app_a', { key: 'exclusive' }, { n: 1 })),
    ]);
    expect(results[20]).toBe('done');
    expect(await counters.findOne('app_a', { key: 'exclusive' })).toMatchObject({ n: 140 });
  });

  it('reports a failed write to exactly the callers it carried', async () => {
    const queue = new DocumentWriteQueue(counters);
    const bad = queue.update('app_a', { key: 'mixed' }, { $inc: { label: 1 } } as never);
    const good = queue.increment('app_a', { key: 'mixed' }, { n: 1 });
    await expect(bad).rejects.toBeDefined();
    await expect(good).resolves.toBeUndefined();
  });

  it('lets exactly one of concurrent deletes take a document', async () => {
    await counters.create('app_a', { key: 'token' });
    const taken = await Promise.all(Array.from({ length: 20 }, () => counters.deleteOne('app_a', { key: 'token' })));
    expect(taken.reduce((a, b) => a + b, 0)).toBe(1);
  });

  it('recognises a unique index refusing an insert, an upsert and an update', async () => {
    await counters.create('app_dup', { key: 'taken' });
    await counters.create('app_dup', { key: 'other' });
    const refusal = (write: Promise<unknown>) => write.then(() => null, (err: unknown) => err);
    const insert = await refusal(counters.create('app_dup', { key: 'taken' }));
    const upsert = await refusal(counters.model.updateOne({ appId: 'app_dup', key: 'fresh', n: 5 }, { $set: { key: 'taken' } }, { upsert: true }).exec());
    // FerretDB reports this one differently from the insert (its backend's own error).
    const update = await refusal(counters.updateOne('app_dup', { key: 'other' }, { $set: { key: 'taken' } }));
    expect([insert, upsert, update].map(isDuplicateKeyError)).toEqual([true, true, true]);
    expect(isDuplicateKeyError(new Error('connection refused'))).toBe(false);
  });
});

describe('filters by _id alone', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let docs: AppScoped<{ _id: string; appId: string; n?: number; label?: string }>;

  beforeAll(async () => {
    db = await testDatabase('mongo');
    const schema = new Schema<{ _id: string; appId: string; n?: number; label?: string }>(
      { _id: String, appId: String, n: Number, label: String },
      { collection: 'docs', versionKey: false },
    );
    docs = new AppScoped(db.model('Doc', schema));
    await docs.create('app_a', { _id: 'doc_a', n: 1 });
  });

  afterAll(() => db.drop());

  it('still keep apps apart: another app reads, updates and deletes nothing', async () => {
    expect(await docs.findOne('app_b', { _id: 'doc_a' })).toBeNull();
    expect(await docs.findOneAndUpdate('app_b', { _id: 'doc_a' }, { $set: { label: 'x' } })).toBeNull();
    expect(await docs.updateOne('app_b', { _id: 'doc_a' }, { $set: { label: 'x' } })).toBe(0);
    expect(await docs.deleteOne('app_b', { _id: 'doc_a' })).toBe(0);
    await expect(docs.increment('app_b', { _id: 'doc_a' }, { n: 1 })).rejects.toBeDefined();
    expect(await docs.findOne('app_a', { _id: 'doc_a' })).toMatchObject({ n: 1 });
    expect((await docs.findOne('app_a', { _id: 'doc_a' }))?.label).toBeUndefined();
  });

  it("work for the app's own documents, and create counters as the app's", async () => {
    expect(await docs.findOneAndUpdate('app_a', { _id: 'doc_a' }, { $set: { label: 'mine' } })).toMatchObject({ label: 'mine' });
    await docs.increment('app_a', { _id: 'counter_a' }, { n: 2 });
    await docs.increment('app_a', { _id: 'counter_a' }, { n: 3 });
    expect(await docs.findOne('app_a', { _id: 'counter_a' })).toEqual({ _id: 'counter_a', appId: 'app_a', n: 5 });
    expect(await docs.findOne('app_b', { _id: 'counter_a' })).toBeNull();
  });
});
