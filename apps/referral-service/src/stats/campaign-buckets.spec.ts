import { Code } from '@connectrpc/connect';
import { toConnectError } from '@ris/rpc';
import { bucketTargets, type Bucket } from './campaign-buckets';
import { campaignBucketModel } from './campaign-bucket.model';
import { rebuildCampaignStats } from './stats-rebuild';
import { NO_CONTEXT, serviceOnTestDatabase } from '../testing/service-on-test-database';

// A campaign's hourly and daily counters against the real database: every
// write that counts the campaign's totals counts its UTC hour and day too.
describe('campaign time buckets', () => {
  let svc: Awaited<ReturnType<typeof serviceOnTestDatabase>>;
  const flagged = { riskScore: 90, reasons: ['SELF_REFERRAL'], warning: 'flagged', flagged: true };
  const clean = { riskScore: 0, reasons: [], flagged: false };

  beforeAll(async () => {
    svc = await serviceOnTestDatabase('referral_buckets', {
      scoreConversion: async (req) => ({ assessment: req.refereeId.startsWith('cheat') ? flagged : clean }),
    });
  });

  afterAll(async () => {
    jest.useRealTimers();
    await svc.db.drop();
  });

  const campaign = async (appId: string) =>
    (await svc.campaigns.create(appId, { name: 'c', referrerReward: { amount: 10, fulfillmentType: 'DISCOUNT_CODE' } }))._id;
  const counts = (b: Bucket) => [b.start.toISOString().slice(0, 16), b.referrals, b.clicks, b.conversions, b.rewardValue];
  /** Only Date is faked: the database driver's timers run as usual, and the clock moves on from the time set. */
  const clockAt = (iso: string) => {
    jest.useFakeTimers({
      doNotFake: ['hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'],
      advanceTimers: true,
    });
    jest.setSystemTime(new Date(iso));
  };

  describe('the writes', () => {
    let a: string;
    let b: string;

    beforeAll(async () => {
      clockAt('2031-03-04T10:59:59.000Z');
      [a, b] = await Promise.all([campaign('app_t'), campaign('app_t')]);
      const ann = (await svc.referrals.create('app_t', { campaignId: a, referrerId: 'ann' })).referral;
      const bob = (await svc.referrals.create('app_t', { campaignId: b, referrerId: 'bob' })).referral;
      // Their code keys known to this process, the clicks arrive together: one batch.
      await Promise.all([ann, bob].map((r) => svc.lookup.codeKey('app_t', r.code)));
      const bucketWrites = jest.spyOn(svc.buckets, 'count');
      await Promise.all([ann, ann, ann, bob, bob].map((r) => svc.clicks.record('app_t', { referralCode: r.code })));
      // One increment per campaign for the batch.
      expect(bucketWrites.mock.calls.map(([, campaignId, , c]) => [campaignId, c])).toEqual([
        [a, { clicks: 3 }],
        [b, { clicks: 2 }],
      ]);
      bucketWrites.mockRestore();

      clockAt('2031-03-04T11:00:00.500Z');
      await svc.clicks.record('app_t', { referralCode: ann.code });
      const input = (refereeId: string) => ({ referralCode: ann.code, refereeId, amount: null, metadata: null, context: NO_CONTEXT, operationKey: '' });
      await svc.recorder.record('app_t', input('pat'));
      const cheat = await svc.recorder.record('app_t', input('cheat'));
      expect(cheat.root.status).toBe('FLAGGED');

      // Rejected an hour and a half later: its reward's value leaves the bucket it was counted in, its conversion's.
      clockAt('2031-03-04T12:30:00.000Z');
      const flag = (await svc.flags.list('app_t', { page: 1, limit: 10 }, { campaignId: a })).items[0];
      await svc.flags.resolve('app_t', flag._id, 'REJECT', null);
      jest.useRealTimers();
    });

    it('counts referrals, clicks, conversions and reward value in the UTC hour and day of each', async () => {
      const hours = await svc.buckets.series('app_t', a, 'HOUR', new Date('2031-03-04T10:00:00Z'), new Date('2031-03-04T13:00:00Z'));
      expect(hours.buckets.map(counts)).toEqual([
        ['2031-03-04T10:00', 1, 3, 0, 0],
        // Two conversions less the rejected one, 2 × 10 of rewards less its 10: both leave its conversion's bucket.
        ['2031-03-04T11:00', 0, 1, 1, 10],
        ['2031-03-04T12:00', 0, 0, 0, 0],
      ]);
      const days = await svc.buckets.series('app_t', a, 'DAY', new Date('2031-03-04T00:00:00Z'), new Date('2031-03-05T00:00:00Z'));
      expect(days.buckets.map(counts)).toEqual([['2031-03-04T00:00', 1, 4, 1, 10]]);
      // The other campaign of the batch: its own clicks.
      const other = await svc.buckets.series('app_t', b, 'HOUR', new Date('2031-03-04T10:00:00Z'), new Date('2031-03-04T11:00:00Z'));
      expect(other.buckets.map(counts)).toEqual([['2031-03-04T10:00', 1, 2, 0, 0]]);
      // The buckets add up to the campaign totals.
      expect(await svc.stats.read('app_t', a)).toMatchObject({ totalReferrals: 1, totalClicks: 4, totalConversions: 1, totalRewardValue: 10 });
    });

    it('recounts the buckets from the records: silent on what the writes kept, and fills what an upgrade or a crash left out', async () => {
      expect((await rebuildCampaignStats(svc.stored, svc.logger, { appId: 'app_t', fix: false, settleMs: 0 })).drifted).toEqual([]);
      // A release before the buckets: none stored.
      await campaignBucketModel(svc.db).deleteMany({ appId: 'app_t' });
      const report = await rebuildCampaignStats(svc.stored, svc.logger, { appId: 'app_t', fix: true, settleMs: 10 });
      const [ten, day] = bucketTargets(a, new Date('2031-03-04T10:00:00Z')).map((t) => t._id);
      const [eleven] = bucketTargets(a, new Date('2031-03-04T11:00:00Z')).map((t) => t._id);
      // Campaign a's 10:00, 11:00 and 4 March; b's 10:00 and 4 March.
      expect(report.buckets).toBe(5);
      const drift = (docId: string) => report.drifted.filter((d) => d.docId === docId).map((d) => [d.field, d.stored, d.expected]);
      expect(drift(ten)).toEqual([
        ['referrals', 0, 1],
        ['clicks', 0, 3],
      ]);
      expect(drift(eleven)).toEqual([
        ['clicks', 0, 1],
        ['conversions', 0, 1],
      ]);
      expect(drift(day)).toEqual([
        ['referrals', 0, 1],
        ['clicks', 0, 4],
        ['conversions', 0, 1],
      ]);
      const hours = await svc.buckets.series('app_t', a, 'HOUR', new Date('2031-03-04T10:00:00Z'), new Date('2031-03-04T12:00:00Z'));
      // The reward value is not recounted: its rewards live in the reward service.
      expect(hours.buckets.map(counts)).toEqual([
        ['2031-03-04T10:00', 1, 3, 0, 0],
        ['2031-03-04T11:00', 0, 1, 1, 0],
      ]);
      expect((await rebuildCampaignStats(svc.stored, svc.logger, { appId: 'app_t', fix: false, settleMs: 0 })).drifted).toEqual([]);
    });
  });

  describe('the read', () => {
    it('answers every bucket overlapping the range, zeros included, across a year boundary', async () => {
      const cmp = await campaign('app_y');
      await svc.stats.count('app_y', cmp, { totalClicks: 2 }, new Date('2030-12-31T23:30:00Z'));
      await svc.stats.count('app_y', cmp, { totalClicks: 5, totalRewardValue: 2.5 }, new Date('2031-01-01T00:10:00Z'));
      const hours = await svc.buckets.series('app_y', cmp, 'HOUR', new Date('2030-12-31T22:15:00Z'), new Date('2031-01-01T00:30:00Z'));
      expect(hours.buckets.map(counts)).toEqual([
        ['2030-12-31T22:00', 0, 0, 0, 0],
        ['2030-12-31T23:00', 0, 2, 0, 0],
        ['2031-01-01T00:00', 0, 5, 0, 2.5],
      ]);
      expect([hours.from.toISOString(), hours.to.toISOString(), hours.stored]).toEqual(['2030-12-31T22:00:00.000Z', '2031-01-01T01:00:00.000Z', 2]);
      const days = await svc.buckets.series('app_y', cmp, 'DAY', new Date('2030-12-30T12:00:00Z'), new Date('2031-01-02T00:00:00Z'));
      expect(days.buckets.map(counts)).toEqual([
        ['2030-12-30T00:00', 0, 0, 0, 0],
        ['2030-12-31T00:00', 0, 2, 0, 0],
        ['2031-01-01T00:00', 0, 5, 0, 2.5],
      ]);
      // Nothing of it for another app, and nothing stored for a campaign without writes.
      expect((await svc.buckets.series('app_other', cmp, 'DAY', new Date('2030-12-30T00:00:00Z'), new Date('2031-01-02T00:00:00Z'))).stored).toBe(0);
      const quiet = await svc.buckets.series('app_y', await campaign('app_y'), 'HOUR', new Date('2031-01-01T00:00:00Z'), new Date('2031-01-01T02:00:00Z'));
      expect([quiet.stored, quiet.buckets.map(counts)]).toEqual([0, [['2031-01-01T00:00', 0, 0, 0, 0], ['2031-01-01T01:00', 0, 0, 0, 0]]]);
    });

    it('reads 31 days of hours across three months (the end of January to March)', async () => {
      const cmp = await campaign('app_y');
      for (const at of ['2031-01-31T12:30:00Z', '2031-02-14T00:00:00Z', '2031-03-03T11:59:59Z']) await svc.stats.count('app_y', cmp, { totalReferrals: 1 }, new Date(at));
      const hours = await svc.buckets.series('app_y', cmp, 'HOUR', new Date('2031-01-31T12:00:00Z'), new Date('2031-03-03T12:00:00Z'));
      expect(hours.buckets).toHaveLength(744);
      expect(hours.buckets.filter((b) => b.referrals > 0).map((b) => b.start.toISOString())).toEqual([
        '2031-01-31T12:00:00.000Z',
        '2031-02-14T00:00:00.000Z',
        '2031-03-03T11:00:00.000Z',
      ]);
      const days = await svc.buckets.series('app_y', cmp, 'DAY', new Date('2030-03-04T00:00:00Z'), new Date('2031-03-04T00:00:00Z'));
      expect(days.buckets.filter((b) => b.referrals > 0).map((b) => b.start.toISOString().slice(0, 10))).toEqual(['2031-01-31', '2031-02-14', '2031-03-03']);
    });

    it('reads at most 744 hourly or 366 daily buckets, and refuses an empty range (INVALID_RANGE)', async () => {
      const cmp = await campaign('app_y');
      const from = new Date('2031-01-01T00:00:00Z');
      const plus = (ms: number) => new Date(from.getTime() + ms);
      expect((await svc.buckets.series('app_y', cmp, 'HOUR', from, plus(744 * 3_600_000))).buckets).toHaveLength(744);
      expect((await svc.buckets.series('app_y', cmp, 'DAY', from, plus(366 * 86_400_000))).buckets).toHaveLength(366);
      const refused = { code: Code.FailedPrecondition, rawMessage: expect.any(String) };
      // As the caller gets it: the domain's refusal through the service's one mapping.
      const atTheEdge = (read: Promise<unknown>) => read.catch((err: unknown) => Promise.reject(toConnectError(err)));
      await expect(atTheEdge(svc.buckets.series('app_y', cmp, 'HOUR', from, plus(744 * 3_600_000 + 1)))).rejects.toMatchObject(refused);
      await expect(atTheEdge(svc.buckets.series('app_y', cmp, 'DAY', plus(1), plus(366 * 86_400_000 + 1)))).rejects.toMatchObject(refused);
      await expect(atTheEdge(svc.buckets.series('app_y', cmp, 'DAY', from, from))).rejects.toMatchObject(refused);
      await expect(svc.buckets.series('app_y', cmp, 'DAY', new Date('9999-12-31T12:00:00Z'), new Date('9999-12-31T23:59:59Z'))).resolves.toMatchObject({ stored: 0 });
    });
  });
});
