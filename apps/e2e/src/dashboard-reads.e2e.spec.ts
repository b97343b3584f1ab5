import { randomBytes } from 'node:crypto';
import { ApiClient, createTestApp, e2eStack, type TestApp } from '@ris/testing';
import { convert, createCampaign, createReferral } from './support/referral-scenario';

const unique = () => randomBytes(4).toString('hex');
/** A documentation-range IP no other test uses. */
const ip = () => `203.0.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
const HOUR = 3_600_000;

// The reads the operator dashboard's pages use, through the gateway.
describe('dashboard reads', () => {
  let app: TestApp;
  let other: TestApp;

  beforeAll(async () => {
    [app, other] = await Promise.all([createTestApp('dashboard reads'), createTestApp('dashboard reads other')]);
  });

  describe('GET /stats/timeseries', () => {
    const sum = (buckets: any[], field: string) => buckets.reduce((total, b) => total + b[field], 0);

    it('moves with the referrals, clicks and conversions, in the UTC hour and day they happened', async () => {
      const campaign = await createCampaign(app, { name: 'Charted' });
      const from = new Date(Math.floor(Date.now() / HOUR) * HOUR - HOUR).toISOString();
      const series = (query: string) => app.api.get(`/stats/timeseries?campaignId=${campaign.id}&${query}`);

      const before = await series(`interval=hour&from=${from}`);
      expect(before.status).toBe(200);
      expect(before.body).toMatchObject({ campaignId: campaign.id, interval: 'hour', from });
      expect(before.body.buckets.length).toBeGreaterThanOrEqual(2);
      for (const b of before.body.buckets) expect(b).toEqual({ start: expect.any(String), referrals: 0, clicks: 0, conversions: 0, rewardValue: 0, reversals: 0, conversionRate: 0 });

      const { referralCode } = await createReferral(app, campaign.id, 'charted-ann');
      const clicks = [];
      for (let i = 0; i < 3; i += 1) clicks.push((await app.api.post('/clicks', { referralCode })).body);
      await convert(app, referralCode, 'charted-pat');

      const hours = (await series(`interval=hour&from=${from}`)).body;
      expect([sum(hours.buckets, 'referrals'), sum(hours.buckets, 'clicks'), sum(hours.buckets, 'conversions'), sum(hours.buckets, 'rewardValue')]).toEqual([1, 3, 1, 10]);
      // Each click is in the bucket of its hour.
      const clickHour = new Date(Math.floor(Date.parse(clicks[0].clickedAt) / HOUR) * HOUR).toISOString();
      expect(hours.buckets.find((b: any) => b.start === clickHour).clicks).toBeGreaterThanOrEqual(1);
      const busy = hours.buckets.filter((b: any) => b.clicks > 0 && b.conversions > 0);
      for (const b of busy) expect(b.conversionRate).toBe(Math.round((b.conversions / b.clicks) * 10_000) / 100);

      const today = new Date(Math.floor(Date.now() / (24 * HOUR)) * 24 * HOUR);
      const days = (await series(`interval=day&from=${new Date(today.getTime() - 2 * 24 * HOUR).toISOString()}`)).body;
      expect(days.buckets.map((b: any) => b.start).slice(0, 2)).toEqual([
        new Date(today.getTime() - 2 * 24 * HOUR).toISOString(),
        new Date(today.getTime() - 24 * HOUR).toISOString(),
      ]);
      expect([sum(days.buckets, 'referrals'), sum(days.buckets, 'clicks'), sum(days.buckets, 'conversions'), sum(days.buckets, 'rewardValue')]).toEqual([1, 3, 1, 10]);
      // The totals of GET /stats are the same writes.
      expect((await app.api.get(`/stats?campaignId=${campaign.id}`)).body).toMatchObject({ totalReferrals: 1, totalClicks: 3, totalConversions: 1, totalRewardValue: 10 });

      // Defaults: 30 days of days up to now.
      const month = (await app.api.get(`/stats/timeseries?campaignId=${campaign.id}`)).body;
      expect([month.interval, month.buckets.length, sum(month.buckets, 'clicks')]).toEqual(['day', 31, 3]);
    });

    it('states a range in any offset and answers it in UTC buckets', async () => {
      const campaign = await createCampaign(app, { name: 'Offsets' });
      const res = await app.api.get(`/stats/timeseries?campaignId=${campaign.id}&interval=day&from=2030-01-01T05:30:00%2B05:30&to=2030-01-03T00:00:00Z`);
      expect(res.status).toBe(200);
      // 05:30+05:30 is 00:00Z: the days of 1 and 2 January.
      expect(res.body).toMatchObject({ from: '2030-01-01T00:00:00.000Z', to: '2030-01-03T00:00:00.000Z' });
      expect(res.body.buckets.map((b: any) => b.start)).toEqual(['2030-01-01T00:00:00.000Z', '2030-01-02T00:00:00.000Z']);
    });

    it('refuses a range too long or empty (422 INVALID_RANGE), a bad interval (400), and another app\'s campaign (404)', async () => {
      const campaign = await createCampaign(app, { name: 'Bounded' });
      const get = (query: string) => app.api.get(`/stats/timeseries?campaignId=${campaign.id}&${query}`);
      expect((await get('interval=hour&from=2030-01-01T00:00:00Z&to=2030-02-01T00:00:00Z')).status).toBe(200);
      const tooLong = await get('interval=hour&from=2030-01-01T00:00:00Z&to=2030-02-01T00:00:01Z');
      expect([tooLong.status, tooLong.body.error.code]).toEqual([422, 'INVALID_RANGE']);
      expect((await get('interval=day&from=2030-01-01T00:00:00Z&to=2031-01-02T00:00:00Z')).status).toBe(200);
      expect((await get('interval=day&from=2030-01-01T00:00:00Z&to=2031-01-03T00:00:00Z')).body.error.code).toBe('INVALID_RANGE');
      expect((await get('from=2030-01-02T00:00:00Z&to=2030-01-01T00:00:00Z')).body.error.code).toBe('INVALID_RANGE');
      const badInterval = await get('interval=week');
      expect([badInterval.status, badInterval.body.error.details.issues[0].field]).toEqual([400, 'query.interval']);
      expect((await other.api.get(`/stats/timeseries?campaignId=${campaign.id}`)).status).toBe(404);
      expect((await app.api.get('/stats/timeseries?campaignId=cmp_nope')).status).toBe(404);
    });
  });

  describe('fraud review', () => {
    let campaignId: string;
    let referral: any;
    const address = ip();
    const device = `dev-${unique()}`;
    const conversions: Record<string, any> = {};

    beforeAll(async () => {
      campaignId = (await createCampaign(app, { name: 'Reviewed', fraud: { flagThreshold: 10 } })).id;
      referral = await createReferral(app, campaignId, `rev-${unique()}`, { ip: address, deviceId: device });
      conversions.sameIp = await convert(app, referral.referralCode, `ip-${unique()}`, { ip: address });
      conversions.sameDevice = await convert(app, referral.referralCode, `dev-${unique()}`, { deviceId: device });
      await app.api.post('/clicks', { referralCode: referral.referralCode, ip: address, deviceId: device });
      conversions.both = await convert(app, referral.referralCode, `both-${unique()}`, { ip: address, deviceId: device });
    });

    const flagOf = (flags: any[], conversion: any) => flags.find((f) => f.conversionId === conversion.conversionId);

    it('lists a campaign\'s flags riskiest first, or newest first', async () => {
      const byRisk = (await app.api.get(`/fraud/flags?campaignId=${campaignId}&status=OPEN&sort=riskScore`)).body.flags;
      expect(byRisk.map((f: any) => f.conversionId)).toEqual([conversions.both.conversionId, conversions.sameDevice.conversionId, conversions.sameIp.conversionId]);
      expect(byRisk.map((f: any) => f.riskScore)).toEqual([100, 60, 35]);
      const newest = (await app.api.get(`/fraud/flags?campaignId=${campaignId}`)).body.flags;
      expect(newest.map((f: any) => f.conversionId)).toEqual([conversions.both.conversionId, conversions.sameDevice.conversionId, conversions.sameIp.conversionId]);
      expect((await other.api.get(`/fraud/flags?campaignId=${campaignId}`)).body.flags).toEqual([]);
    });

    it('shows a flag with its evidence: the signals, the click before, the records sharing its IP or device', async () => {
      const flags = (await app.api.get(`/fraud/flags?campaignId=${campaignId}`)).body.flags;
      const flag = flagOf(flags, conversions.both);
      const res = await app.api.get(`/fraud/flags/${flag.id}`);
      expect(res.status).toBe(200);
      expect(res.body.flag).toEqual(flag);
      const { evidence } = res.body;
      expect(evidence.signals).toMatchObject({ ip: address, deviceId: device, userAgent: null, email: null });
      expect(evidence.click).toMatchObject({ clickId: expect.stringMatching(/^clk_/) });
      expect(evidence.click.secondsToConversion).toBeGreaterThanOrEqual(0);
      expect(evidence.windowMinutes).toBe(60);
      const linked = evidence.linked.map((l: any) => [l.kind, l.id, l.shared]);
      // The referrer's own referral first (what SAME_IP and SAME_DEVICE compared), then the window, newest first.
      expect(linked).toEqual([
        ['REFERRAL', referral.referralId, ['ip', 'deviceId']],
        ['CLICK', evidence.click.clickId, ['ip', 'deviceId']],
        ['CONVERSION', conversions.sameDevice.conversionId, ['deviceId']],
        ['CONVERSION', conversions.sameIp.conversionId, ['ip']],
      ]);
      expect(evidence.linked[3]).toMatchObject({ campaignId, referralCode: referral.referralCode, refereeId: conversions.sameIp.refereeId });
    });

    it("is 404 for an unknown flag and another app's", async () => {
      const flag = flagOf((await app.api.get(`/fraud/flags?campaignId=${campaignId}`)).body.flags, conversions.sameIp);
      expect((await other.api.get(`/fraud/flags/${flag.id}`)).status).toBe(404);
      expect((await app.api.get('/fraud/flags/flg_nope')).body.error.code).toBe('NOT_FOUND');
    });

    it('documents each reason code in words', async () => {
      const doc = (await new ApiClient(e2eStack().gatewayUrl).get('/api/v1/openapi.json')).body;
      const described = doc.components.schemas.FraudFlag.properties.reasons.description;
      for (const code of ['SELF_REFERRAL', 'EMAIL_ALIAS', 'SAME_DEVICE', 'SAME_IP', 'IP_VELOCITY', 'DEVICE_VELOCITY', 'REFERRER_VELOCITY', 'FAST_CONVERSION', 'DISPOSABLE_EMAIL', 'MULTIPLE_CODES']) {
        expect(described).toMatch(new RegExp(`${code}: [A-Z]`));
      }
    });
  });

  describe('GET /rewards/{rewardId}/history', () => {
    it("lists a reward's moves from its creation, oldest first", async () => {
      const campaign = await createCampaign(app, { name: 'History' });
      const { referralCode } = await createReferral(app, campaign.id, 'hist-ann');
      const clean = await convert(app, referralCode, 'hist-pat');
      const rewardId = clean.rewards[0].rewardId;
      await app.api.post('/rewards/redeem', { rewardId, userId: 'hist-ann' });
      const res = await app.api.get(`/rewards/${rewardId}/history`);
      expect(res.status).toBe(200);
      expect(res.body.history.map((m: any) => [m.from, m.to])).toEqual([
        ['NEW', 'APPROVED'],
        ['APPROVED', 'PAID'],
      ]);
      expect(Date.parse(res.body.history[0].at)).toBeLessThanOrEqual(Date.parse(res.body.history[1].at));

      // Held for review, then rejected: PENDING, then CANCELLED.
      const cheat = await convert(app, referralCode, 'hist-ann');
      expect(cheat.conversionStatus).toBe('FLAGGED');
      const flag = (await app.api.get(`/fraud/flags?campaignId=${campaign.id}`)).body.flags[0];
      await app.api.post(`/fraud/flags/${flag.id}/resolve`, { decision: 'REJECT' });
      const held = await app.api.get(`/rewards/${cheat.rewards[0].rewardId}/history`);
      expect(held.body.history.map((m: any) => [m.from, m.to])).toEqual([
        ['NEW', 'PENDING'],
        ['PENDING', 'CANCELLED'],
      ]);
      expect((await other.api.get(`/rewards/${rewardId}/history`)).status).toBe(404);
    });
  });

  describe('GET /referrals and GET /conversions?userId=', () => {
    it("lists a campaign's referrals newest first, a referrer's, and a user's conversions either side", async () => {
      const campaign = await createCampaign(app, { name: 'Listed' });
      const ann = await createReferral(app, campaign.id, 'list-ann');
      const bob = await createReferral(app, campaign.id, 'list-bob');
      await convert(app, ann.referralCode, 'list-pat');
      await convert(app, bob.referralCode, 'list-ann');

      const list = await app.api.get(`/referrals?campaignId=${campaign.id}`);
      expect(list.status).toBe(200);
      expect(list.body.pagination).toEqual({ page: 1, limit: 25, totalItems: 2, totalPages: 1 });
      expect(list.body.referrals.map((r: any) => [r.referrerId, r.status])).toEqual([
        ['list-bob', 'COMPLETED'],
        ['list-ann', 'COMPLETED'],
      ]);
      expect(list.body.referrals[1]).toMatchObject({ id: ann.referralId, referralCode: ann.referralCode, Campaign: { id: campaign.id, name: 'Listed' } });
      expect((await app.api.get(`/referrals?referrerId=list-ann`)).body.referrals.map((r: any) => r.id)).toEqual([ann.referralId]);
      expect((await app.api.get(`/referrals?campaignId=${campaign.id}&limit=1&page=2`)).body.referrals.map((r: any) => r.referrerId)).toEqual(['list-ann']);
      expect((await other.api.get(`/referrals?campaignId=${campaign.id}`)).body.pagination.totalItems).toBe(0);

      const mine = await app.api.get('/conversions?userId=list-ann');
      expect(mine.status).toBe(200);
      expect(mine.body.conversions.map((c: any) => [c.referrerId, c.refereeId])).toEqual([
        ['list-bob', 'list-ann'],
        ['list-ann', 'list-pat'],
      ]);
      expect((await app.api.get(`/conversions?userId=list-ann&campaignId=${campaign.id}&limit=1&page=2`)).body.conversions.map((c: any) => c.refereeId)).toEqual(['list-pat']);
      expect((await other.api.get('/conversions?userId=list-ann')).body.conversions).toEqual([]);
    });
  });
});
