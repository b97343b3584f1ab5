import { Schema } from 'mongoose';
import { testDatabase } from '@ris/testing';

interface KeyDoc {
  _id: string;
  appId: string;
  code: string;
}

// Every lookup the services make by an indexed field must be answered from
// that index by the database the suite runs on: MongoDB does it by itself;
// FerretDB v1 on PostgreSQL does it through the GIN twins and the custom
// plans that tools/infra/ferretdb-pg-indexes.sql sets up. Without them each
// find scans its collection and the request paths slow down with data size.
describe('indexed lookups', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;

  beforeAll(async () => {
    db = await testDatabase('mongo');
    const schema = new Schema<KeyDoc>({ _id: String, appId: String, code: String }, { collection: 'keys' });
    schema.index({ appId: 1, code: 1 }, { unique: true });
    const model = db.model<KeyDoc>('Key', schema);
    await model.init();
    const docs = Array.from({ length: 3000 }, (_, i) => ({ _id: `k${i}`, appId: `app_${i % 3}`, code: `CODE${i}` }));
    await db.collection<KeyDoc>('keys').insertMany(docs);
  });

  afterAll(() => db.drop());

  async function plan(filter: Record<string, unknown>): Promise<string> {
    const explained = await db.db!.command({ explain: { find: 'keys', filter } });
    return JSON.stringify(explained.queryPlanner);
  }

  // PostgreSQL names its index scans "Index Scan" / "Bitmap Index Scan";
  // MongoDB names them IXSCAN (and IDHACK for _id). A full scan is
  // "Seq Scan" or COLLSCAN.
  const usesIndex = /Index Scan|IXSCAN|IDHACK|EXPRESS_IXSCAN/;

  it('answers a find by _id from an index', async () => {
    expect(await plan({ _id: 'k1234' })).toMatch(usesIndex);
  });

  it('answers a find by the fields of a compound index from an index', async () => {
    expect(await plan({ appId: 'app_1', code: 'CODE1234' })).toMatch(usesIndex);
  });

  it('still finds the right documents through the index', async () => {
    const keys = db.collection<KeyDoc>('keys');
    expect(await keys.findOne({ appId: 'app_1', code: 'CODE1234' })).toMatchObject({ _id: 'k1234' });
    expect(await keys.findOne({ appId: 'app_2', code: 'CODE1234' })).toBeNull();
    expect(await keys.countDocuments({ appId: 'app_0' })).toBe(1000);
  });

  it('scans a collection for a field no index covers (the check above can fail)', async () => {
    expect(await plan({ notIndexed: 'x' })).not.toMatch(usesIndex);
  });
});
