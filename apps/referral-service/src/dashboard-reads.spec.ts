import { testDatabase } from '@ris/testing';
import { campaignBucketModel } from './stats/campaign-bucket.model';
import { conversionModel } from './conversions/conversion.model';
import { fraudFlagModel } from './flags/fraud-flag.model';
import { referralModel } from './referrals/referral.model';

// The reads the dashboard added (GET /referrals, /conversions?userId=,
// /fraud/flags with campaignId, /stats/timeseries) must be answered from
// their indexes by the database the suite runs on, as libs/mongo's
// indexed-lookups.spec.ts checks for the lookups: MongoDB plans an index
// scan by itself; FerretDB v1 on PostgreSQL serves the equality part from
// the GIN twins of the declared indexes (tools/infra/ferretdb-pg-indexes.sql)
// and filters ranges and sorts itself.
describe('the dashboard reads are indexed', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  const at = (i: number) => new Date(Date.UTC(2031, 0, 1) + i * 60_000);

  beforeAll(async () => {
    db = await testDatabase('referral_dashboard_reads');
    const models = [conversionModel(db), campaignBucketModel(db), referralModel(db), fraudFlagModel(db)];
    await Promise.all(models.map((m) => m.init()));
    // Enough documents over enough apps, users and campaigns that a scan and an index read differ.
    const n = 3000;
    const ids = Array.from({ length: n }, (_, i) => i);
    await db.collection('conversions').insertMany(
      ids.map((i) => ({
        _id: `conv_${i}` as never,
        appId: `app_${i % 3}`,
        campaignId: `cmp_${i % 30}`,
        conversionId: `conv_${i}`,
        referrerId: `user_${i % 500}`,
        refereeId: `user_${(i * 7) % 1000}`,
        level: 1,
        status: 'CONVERTED',
        lastEventAt: at(i),
      })),
    );
    await db.collection('campaign_buckets').insertMany(
      ids.map((i) => ({
        _id: `cmp_${i % 30}:${i}` as never,
        appId: `app_${i % 3}`,
        campaignId: `cmp_${i % 30}`,
        interval: i % 2 ? 'hour' : 'day',
        partition: `${2025 + (i % 7)}-${String(1 + (i % 12)).padStart(2, '0')}`,
        start: at(i * 1440),
      })),
    );
    await db.collection('referrals').insertMany(
      ids.map((i) => ({ _id: `ref_${i}` as never, appId: `app_${i % 3}`, campaignId: `cmp_${i % 30}`, referrerId: `user_${i}`, code: `CODE${i}`, createdAt: at(i) })),
    );
    await db.collection('fraud_flags').insertMany(
      ids.map((i) => ({ _id: `flg_${i}` as never, appId: `app_${i % 3}`, campaignId: `cmp_${i % 30}`, subject: 'CONVERSION', subjectId: `conv_${i}`, status: i % 4 ? 'APPROVED' : 'OPEN', riskScore: i % 101, createdAt: at(i) })),
    );
    // 12,000 documents and four collections' indexes: seconds on FerretDB when the machine is busy.
  }, 60_000);

  afterAll(() => db.drop());

  /**
   * The fields of the filter an index answers: PostgreSQL's index
   * conditions (`_jsonb -> 'field'` of a Bitmap Index Scan or Index Scan)
   * or MongoDB's IXSCAN key patterns. A field only filtered after the read
   * (PostgreSQL's Filter, FerretDB's own filtering) is not one.
   */
  async function indexedFields(collection: string, filter: Record<string, unknown>, sort?: Record<string, number>): Promise<string[]> {
    const explained = await db.db!.command({ explain: { find: collection, filter, ...(sort ? { sort } : {}) } });
    const fields = new Set<string>();
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(walk);
      if (!node || typeof node !== 'object') return;
      const stage = node as Record<string, unknown>;
      if (typeof stage['Index Cond'] === 'string') for (const [, field] of stage['Index Cond'].matchAll(/-> '(\w+)'/g)) fields.add(field);
      if (stage.stage === 'IXSCAN' && stage.keyPattern) Object.keys(stage.keyPattern).forEach((field) => fields.add(field));
      Object.values(stage).forEach(walk);
    };
    walk(explained.queryPlanner);
    return [...fields];
  }

  it('conversions of a user: one query as the referrer, one as the referee, each by an index on that field', async () => {
    const newest = { lastEventAt: -1, _id: -1 };
    expect(await indexedFields('conversions', { appId: 'app_1', referrerId: 'user_7' }, newest)).toContain('referrerId');
    expect(await indexedFields('conversions', { appId: 'app_1', refereeId: 'user_7' }, newest)).toContain('refereeId');
    // Why not one $or: FerretDB filters it itself, after reading every
    // conversion of the app (MongoDB would use both indexes).
    const info = await db.db!.command({ buildInfo: 1 });
    if (info.ferretdbVersion) {
      expect(await indexedFields('conversions', { appId: 'app_1', $or: [{ referrerId: 'user_7' }, { refereeId: 'user_7' }] }, newest)).toEqual(['appId']);
    }
  });

  it('a campaign time series: the hour documents of one day of one campaign', async () => {
    const filter = { appId: 'app_1', campaignId: 'cmp_4', interval: 'hour', partition: '2027-03', start: { $gte: at(0), $lte: at(3000 * 1440) } };
    // PostgreSQL picks the most selective of the equality fields' indexes; any of them but appId bounds the read.
    expect((await indexedFields('campaign_buckets', filter, { start: 1 })).filter((field) => field !== 'appId')).not.toEqual([]);
  });

  it("a campaign's referrals, newest first", async () => {
    expect(await indexedFields('referrals', { appId: 'app_1', campaignId: 'cmp_4' }, { createdAt: -1, _id: -1 })).toContain('campaignId');
  });

  it("a campaign's open flags, riskiest first", async () => {
    const fields = await indexedFields('fraud_flags', { appId: 'app_1', campaignId: 'cmp_4', status: 'OPEN' }, { riskScore: -1, createdAt: -1, _id: -1 });
    expect(fields.filter((field) => field !== 'appId')).not.toEqual([]);
  });
});
