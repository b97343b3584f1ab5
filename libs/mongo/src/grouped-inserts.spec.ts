import { Schema, type Model } from 'mongoose';
import { testDatabase } from '@ris/testing';
import { AppScoped } from './app-scoped';
import { GroupedInserts } from './grouped-inserts';

interface CodeDoc {
  _id: string;
  appId: string;
  code: string;
}

// Against the real development database (FerretDB v1).
describe('GroupedInserts', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let codes: AppScoped<CodeDoc>;

  beforeAll(async () => {
    db = await testDatabase('mongo');
    const schema = new Schema<CodeDoc>({ _id: String, appId: String, code: String }, { collection: 'grouped_codes', versionKey: false });
    schema.index({ code: 1 }, { unique: true });
    const model: Model<CodeDoc> = db.model<CodeDoc>('GroupedCode', schema);
    await model.init();
    codes = new AppScoped(model);
  });

  afterAll(() => db.drop());

  it('stores the documents of concurrent callers in one insertMany; a duplicate _id or unique key answers false to its caller only', async () => {
    await codes.insertMany([{ _id: 'taken', appId: 'app_a', code: 'C0' }]);
    const inserts = new GroupedInserts(codes);
    const calls: number[] = [];
    const insertMany = codes.insertMany.bind(codes);
    codes.insertMany = (docs, options) => {
      calls.push(docs.length);
      return insertMany(docs, options);
    };
    const results = await Promise.all([
      inserts.insertNew({ _id: 'd1', appId: 'app_a', code: 'C1' }),
      inserts.insertNew({ _id: 'taken', appId: 'app_a', code: 'C2' }),
      inserts.insertNew({ _id: 'd3', appId: 'app_b', code: 'C3' }),
      inserts.insertNew({ _id: 'd4', appId: 'app_b', code: 'C1' }),
      inserts.insertNew({ _id: 'd5', appId: 'app_a', code: 'C5' }),
    ]);
    expect(results).toEqual([true, false, true, false, true]);
    expect(calls).toEqual([5]);
    const stored = await codes.model.find({}).sort({ _id: 1 }).lean().exec();
    expect(stored.map((d) => [d._id, d.appId, d.code])).toEqual([
      ['d1', 'app_a', 'C1'],
      ['d3', 'app_b', 'C3'],
      ['d5', 'app_a', 'C5'],
      ['taken', 'app_a', 'C0'],
    ]);
  });
});
