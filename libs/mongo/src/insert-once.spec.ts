import { Schema, type Model } from 'mongoose';
import { testDatabase } from '@ris/testing';
import { insertOnce } from './insert-once';

/** A housekeeping record of no app, as a pass across apps writes it. */
interface RunDoc {
  _id: string;
  finishedAt: Date;
  apps: number;
}

// Against the real development database (FerretDB v1).
describe('insertOnce', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let runs: Model<RunDoc>;
  const at = new Date('2026-03-04T05:06:07.000Z');

  beforeAll(async () => {
    db = await testDatabase('mongo');
    const schema = new Schema<RunDoc>(
      { _id: { type: String, required: true }, finishedAt: { type: Date, required: true }, apps: { type: Number, required: true } },
      { collection: 'runs', versionKey: false },
    );
    runs = db.model<RunDoc>('Run', schema);
    await runs.init();
  });

  afterAll(() => db.drop());

  it('inserts a document without an app: true the first time, false after, the first one kept', async () => {
    expect(await insertOnce(runs, { _id: 'DAILY:2026-03-04', finishedAt: at, apps: 3 })).toBe(true);
    expect(await insertOnce(runs, { _id: 'DAILY:2026-03-04', finishedAt: new Date(), apps: 9 })).toBe(false);
    expect(await runs.find({}).lean().exec()).toEqual([{ _id: 'DAILY:2026-03-04', finishedAt: at, apps: 3 }]);
  });

  it('answers true to exactly one of concurrent callers (replicas finishing the same pass)', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => insertOnce(runs, { _id: 'WEEKLY:2026-W10', finishedAt: at, apps: i })));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await runs.find({ _id: 'WEEKLY:2026-W10' }).lean().exec()).toEqual([{ _id: 'WEEKLY:2026-W10', finishedAt: at, apps: results.indexOf(true) }]);
  });

  it('raises any other failure', async () => {
    await expect(insertOnce(runs, { _id: 'MONTHLY:2026-03', finishedAt: at } as RunDoc)).rejects.toThrow(/apps/);
    expect(await runs.countDocuments({ _id: 'MONTHLY:2026-03' }).exec()).toBe(0);
  });
});
