import { SharedAttribute, SignalKind } from '@ris/contracts';
import type { ReferralBatch } from './referrals/referral-list';
import { NO_CONTEXT, serviceOnTestDatabase } from './testing/service-on-test-database';

// The lists the dashboard reads, against the real database.
describe('dashboard lists', () => {
  let svc: Awaited<ReturnType<typeof serviceOnTestDatabase>>;
  let campaignId: string;
  let other: string;
  const risk: Record<string, number> = { 'cheat-1': 60, 'cheat-2': 95, 'cheat-3': 70 };

  beforeAll(async () => {
    svc = await serviceOnTestDatabase('referral_dashboard_lists', {
      scoreConversion: async (req) => {
        const score = risk[req.refereeId];
        return { assessment: score ? { riskScore: score, reasons: ['SAME_IP'], warning: 'flagged', flagged: true } : { riskScore: 0, reasons: [], flagged: false } };
      },
      getSignalEvidence: async (req) => ({
        found: true,
        context: { ip: '203.0.113.9' },
        clickId: 'clk_before',
        windowMinutes: 60,
        linked: [
          { kind: SignalKind.REFERRAL, campaignId: req.campaignId, referralCode: 'X', referrerId: 'ann', shared: [SharedAttribute.IP] },
          { kind: SignalKind.CONVERSION, campaignId: req.campaignId, referralCode: 'X', referrerId: 'ann', refereeId: 'pat', shared: [SharedAttribute.IP] },
          { kind: SignalKind.CONVERSION, campaignId: req.campaignId, referralCode: 'X', referrerId: 'ann', refereeId: 'never-stored', shared: [SharedAttribute.IP] },
          { kind: SignalKind.CLICK, campaignId: req.campaignId, referralCode: 'X', referrerId: 'ann', clickId: 'clk_9', shared: [SharedAttribute.DEVICE_ID] },
        ],
      }),
    });
    const create = async () => (await svc.campaigns.create('app_l', { name: 'c', referrerReward: { amount: 10, fulfillmentType: 'DISCOUNT_CODE' } }))._id;
    campaignId = await create();
    other = await create();
    const convert = (code: string, refereeId: string) =>
      svc.recorder.record('app_l', { referralCode: code, refereeId, amount: null, metadata: null, context: NO_CONTEXT, operationKey: '' });
    // ann refers pat, quinn and (flagged) three cheats; ann is referred by bob; ann refers herself in the other campaign.
    const ann = (await svc.referrals.create('app_l', { campaignId, referrerId: 'ann' })).referral;
    const bob = (await svc.referrals.create('app_l', { campaignId, referrerId: 'bob' })).referral;
    const annOther = (await svc.referrals.create('app_l', { campaignId: other, referrerId: 'ann' })).referral;
    for (const referee of ['pat', 'quinn', 'cheat-1', 'cheat-2', 'cheat-3']) await convert(ann.code, referee);
    await convert(bob.code, 'ann');
    await convert(annOther.code, 'ann');
  });

  afterAll(() => svc.db.drop());

  it("lists a campaign's referrals newest first, or a referrer's, with their counters", async () => {
    const all = await svc.referralList.list('app_l', { campaignId }, { page: 1, limit: 10 });
    expect(all.items.map((r) => r.referrerId)).toEqual(['bob', 'ann']);
    expect(all.counters.get(all.items[1]._id)?.conversions).toEqual({ L1: 5 });
    expect(all.campaigns.get(campaignId)).toMatchObject({ name: 'c' });
    expect((await svc.referralList.list('app_l', { referrerId: 'ann' }, { page: 1, limit: 10 })).items.map((r) => r.campaignId)).toEqual([other, campaignId]);
    const one = await svc.referralList.list('app_l', { campaignId, referrerId: 'ann' }, { page: 1, limit: 10 });
    expect([one.totalItems, one.items.map((r) => r.referrerId)]).toEqual([1, ['ann']]);
    expect((await svc.referralList.list('app_l', { campaignId, referrerId: 'ann' }, { page: 2, limit: 10 })).items).toEqual([]);
    expect((await svc.referralList.list('app_l', {}, { page: 1, limit: 2 })).totalItems).toBe(3);
    expect((await svc.referralList.list('app_other', { campaignId }, { page: 1, limit: 10 })).totalItems).toBe(0);
  });

  it('exports what the referral list lists, in its order, with the same counters and campaigns, for each filter', async () => {
    for (const filter of [{}, { campaignId }, { referrerId: 'ann' }, { campaignId, referrerId: 'ann' }, { campaignId, referrerId: 'nobody' }]) {
      const page = await svc.referralList.list('app_l', filter, { page: 1, limit: 100 });
      const batches = [];
      for await (const batch of svc.referralList.export('app_l', filter)) batches.push(batch);
      const read = (b: ReferralBatch) => b.items.map((r) => [r._id, b.counters.get(r._id)?.conversions ?? null, b.campaigns.get(r.campaignId)?.name]);
      expect([filter, batches.flatMap(read)]).toEqual([filter, read(page)]);
    }
  });

  it("exports the participants directory in each of the list's orders and filters", async () => {
    for (const order of ['USER_ID', 'REFERRALS', 'CONVERSIONS', 'REWARD_VALUE', 'LAST_ACTIVITY'] as const) {
      for (const filter of [{}, { query: 'cheat-' }, { engaged: false }]) {
        const page = await svc.participants.list('app_l', filter, order, { page: 1, limit: 100 });
        const exported = [];
        for await (const batch of svc.participants.export('app_l', filter, order)) exported.push(...batch);
        expect(page.items.length).toBeGreaterThan(0);
        expect([order, filter, exported.map((p) => p.userId)]).toEqual([order, filter, page.items.map((p) => p.userId)]);
      }
    }
  });

  it("lists a user's conversions as referrer or referee, newest first, a self-referral once, page by page", async () => {
    const first = await svc.conversionList.list('app_l', { userId: 'ann' }, { page: 1, limit: 4 });
    // 5 as referrer in the campaign, 1 as referee there, 1 of both in the other campaign.
    expect(first.totalItems).toBe(7);
    const second = await svc.conversionList.list('app_l', { userId: 'ann' }, { page: 2, limit: 4 });
    const listed = [...first.items, ...second.items];
    expect(listed).toHaveLength(7);
    expect(new Set(listed.map((r) => r._id)).size).toBe(7);
    expect(listed.map((r) => [r.referrerId, r.refereeId])).toEqual([
      ['ann', 'ann'],
      ['bob', 'ann'],
      ['ann', 'cheat-3'],
      ['ann', 'cheat-2'],
      ['ann', 'cheat-1'],
      ['ann', 'quinn'],
      ['ann', 'pat'],
    ]);
    expect((await svc.conversionList.list('app_l', { userId: 'ann' }, { page: 3, limit: 4 })).items).toEqual([]);
    // With the other filters.
    expect((await svc.conversionList.list('app_l', { userId: 'ann', campaignId: other }, { page: 1, limit: 10 })).totalItems).toBe(1);
    expect((await svc.conversionList.list('app_l', { userId: 'ann', status: 'FLAGGED' }, { page: 1, limit: 10 })).totalItems).toBe(3);
    expect((await svc.conversionList.list('app_other', { userId: 'ann' }, { page: 1, limit: 10 })).totalItems).toBe(0);
  });

  it('lists flags riskiest first, of a campaign', async () => {
    const byRisk = await svc.flags.list('app_l', { page: 1, limit: 10 }, { status: 'OPEN', campaignId }, 'RISK_SCORE');
    expect(byRisk.items.map((f) => [f.refereeId, f.riskScore])).toEqual([
      ['cheat-2', 95],
      ['cheat-3', 70],
      ['cheat-1', 60],
    ]);
    expect((await svc.flags.list('app_l', { page: 1, limit: 10 }, { campaignId })).items.map((f) => f.refereeId)).toEqual(['cheat-3', 'cheat-2', 'cheat-1']);
    expect((await svc.flags.list('app_l', { page: 1, limit: 10 }, { campaignId: other })).totalItems).toBe(0);
  });

  it("gives a flag's evidence the ids of the records it links, when they were stored", async () => {
    const flag = (await svc.flags.list('app_l', { page: 1, limit: 1 }, { campaignId }, 'RISK_SCORE')).items[0];
    const evidence = await svc.evidence.of(flag);
    const pat = await svc.stored.conversions.refereeRecord('app_l', campaignId, 'pat');
    const ann = await svc.lookup.ofReferrer('app_l', campaignId, 'ann');
    expect(evidence).toMatchObject({ found: true, context: { ip: '203.0.113.9' }, clickId: 'clk_before', windowMinutes: 60 });
    expect(evidence!.linked.map((l) => [SignalKind[l.kind], l.id])).toEqual([
      ['REFERRAL', ann!._id],
      ['CONVERSION', pat!.conversionId],
      ['CONVERSION', undefined],
      ['CLICK', 'clk_9'],
    ]);
  });
});
