import { create } from '@bufbuild/protobuf';
import { Code, ConnectError, type ServiceImpl } from '@connectrpc/connect';
import { RewardSchema, RewardSide, RewardStatus, type FraudService, type RewardService } from '@ris/contracts';
import { toConnectError } from '@ris/rpc';
import { clickModel } from '../clicks/click.model';
import { deferredFraudCheckModel } from '../fraud-check/deferred-fraud-check.model';
import { bucketTargets } from '../stats/campaign-buckets';
import { rebuildCampaignStats } from '../stats/stats-rebuild';
import { serviceOnTestDatabase } from '../testing/service-on-test-database';
import { conversionModel } from './conversion.model';

// The conversion flow against the real database, with the fraud and reward
// services stood in for by in-memory Connect routers (their own behaviour
// is tested in their services and end to end).
describe('recording conversions', () => {
  let svc: Awaited<ReturnType<typeof serviceOnTestDatabase>>;
  let fraudUp = true;

  const fraudImpl: Partial<ServiceImpl<typeof FraudService>> = {
    scoreReferral: async () => {
      if (!fraudUp) throw new ConnectError('down', Code.Unavailable);
      return { assessment: { riskScore: 0, reasons: [], flagged: false } };
    },
    scoreConversion: async () => {
      if (!fraudUp) throw new ConnectError('down', Code.Unavailable);
      return { assessment: { riskScore: 0, reasons: [], flagged: false } };
    },
    recordClicks: async () => ({}),
  };
  const issued = new Map<string, RewardStatus>();
  let refereeRewardsUp = true;
  const rewardImpl: Partial<ServiceImpl<typeof RewardService>> = {
    createReward: async (req) => {
      if (!refereeRewardsUp && req.side === RewardSide.REFEREE) throw new ConnectError('down', Code.Unavailable);
      const id = `rwd_${req.conversionId}_${req.side}_${req.level}`;
      const created = !issued.has(id);
      if (created) issued.set(id, req.hold ? RewardStatus.PENDING : RewardStatus.APPROVED);
      const reward = create(RewardSchema, {
        id,
        userId: req.userId,
        side: req.side,
        level: req.level,
        amount: req.amount,
        conversionId: req.conversionId,
        status: issued.get(id),
      });
      return { created, capped: false, reward };
    },
    approveConversionRewards: async (req) => {
      const moved = [...issued].filter(([id, status]) => id.startsWith(`rwd_${req.conversionId}_`) && status === RewardStatus.PENDING);
      for (const [id] of moved) issued.set(id, RewardStatus.APPROVED);
      return { rewards: moved.map(([id]) => create(RewardSchema, { id, status: RewardStatus.APPROVED })) };
    },
    cancelConversionRewards: async () => ({ rewards: [] }),
    listConversionRewards: async (req) => ({
      rewards: [...issued]
        .filter(([id]) => id.startsWith(`rwd_${req.conversionId}_`))
        .map(([id, status]) => create(RewardSchema, { id, status, conversionId: req.conversionId, side: Number(id.split('_').at(-2)), level: Number(id.split('_').at(-1)) })),
    }),
  };

  beforeAll(async () => {
    svc = await serviceOnTestDatabase('referral', fraudImpl, rewardImpl);
  });

  afterAll(() => svc.db.drop());

  // As the caller gets it: the domain's refusal through the service's one mapping.
  const atTheEdge = (work: Promise<unknown>) => work.catch((err: unknown) => Promise.reject(toConnectError(err)));

  const campaign = (appId: string) =>
    svc.campaigns.create(appId, { name: 'c', referrerReward: { amount: 10, fulfillmentType: 'DISCOUNT_CODE' } });

  it('lets exactly one of 20 concurrent conversions of a PENDING referee through', async () => {
    const { _id: campaignId } = await campaign('app_a');
    const a = (await svc.referrals.create('app_a', { campaignId, referrerId: 'ann', refereeId: 'pat' })).referral;
    const b = (await svc.referrals.create('app_a', { campaignId, referrerId: 'bob' })).referral;
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        svc.recorder.record('app_a', { referralCode: i % 2 ? a.code : b.code, refereeId: 'pat', amount: null, metadata: null, context: { ip: null, userAgent: null, deviceId: null, email: null }, operationKey: '' }),
      ),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    expect(ok).toHaveLength(1);
    for (const r of results.filter((x) => x.status === 'rejected')) {
      expect(toConnectError((r as PromiseRejectedResult).reason)).toMatchObject({ code: Code.Aborted });
    }
    const records = await conversionModel(svc.db).find({ appId: 'app_a', campaignId, refereeId: 'pat' }).lean();
    expect(records.map((r) => r.status)).toEqual(['CONVERTED']);
    expect((await svc.stats.read('app_a', campaignId))?.totalConversions).toBe(1);
  });

  it('defers the check while the fraud service is down and scores it in the recovery pass', async () => {
    const { _id: campaignId } = await campaign('app_b');
    const { referral } = await svc.referrals.create('app_b', { campaignId, referrerId: 'kim' });
    fraudUp = false;
    const outcome = await svc.recorder.record('app_b', { referralCode: referral.code, refereeId: 'lou', amount: 5, metadata: { a: 1 }, context: { ip: '192.0.2.1', userAgent: null, deviceId: null, email: null }, operationKey: '' });
    expect(outcome.root).toMatchObject({ status: 'CONVERTED', fraudCheck: 'DEFERRED', context: { ip: '192.0.2.1' } });
    expect(outcome.rewards.map((r) => r.status)).toEqual(['PENDING']);
    await svc.recovery.runOnce();
    expect(await deferredFraudCheckModel(svc.db).countDocuments({ appId: 'app_b' })).toBe(1);

    fraudUp = true;
    await svc.recovery.runOnce();
    expect(await deferredFraudCheckModel(svc.db).countDocuments({ appId: 'app_b' })).toBe(0);
    expect(await svc.stored.conversions.findById('app_b', outcome.root._id)).toMatchObject({ fraudCheck: 'DONE', context: null, rewardsSettled: true });
    expect(issued.get(outcome.rewards[0].rewardId)).toBe(RewardStatus.APPROVED);
  });

  it('approves a reward a held attempt issued when a later, clean attempt finishes the issue', async () => {
    const { _id: campaignId } = await svc.campaigns.create('app_h', {
      name: 'double',
      referrerReward: { amount: 10, fulfillmentType: 'DISCOUNT_CODE' },
      refereeReward: { amount: 5, fulfillmentType: 'DISCOUNT_CODE' },
    });
    const { referral } = await svc.referrals.create('app_h', { campaignId, referrerId: 'hal' });
    // Unscored (held): the referrer's reward is issued PENDING, the referee's call fails.
    fraudUp = false;
    refereeRewardsUp = false;
    const context = { ip: null, userAgent: null, deviceId: null, email: null };
    await expect(svc.recorder.record('app_h', { referralCode: referral.code, refereeId: 'ida', amount: null, metadata: null, context, operationKey: '' })).rejects.toThrow();
    const referrerReward = `rwd_${(await svc.stored.conversions.refereeRecord('app_h', campaignId, 'ida'))!.conversionId}_${RewardSide.REFERRER}_1`;
    expect(issued.get(referrerReward)).toBe(RewardStatus.PENDING);

    // Scored clean later: the issue is finished unheld, and the reward the held attempt made is approved too.
    fraudUp = true;
    refereeRewardsUp = true;
    await svc.recovery.runOnce();
    expect(issued.get(referrerReward)).toBe(RewardStatus.APPROVED);
    expect(await svc.stored.conversions.refereeRecord('app_h', campaignId, 'ida')).toMatchObject({ fraudCheck: 'DONE', rewardsSettled: true });
  });

  it('answers a retry of the same request (operation key) with the conversion its first try made, finishing it, and refuses another', async () => {
    const { _id: campaignId } = await svc.campaigns.create('app_k', {
      name: 'double',
      referrerReward: { amount: 10, fulfillmentType: 'DISCOUNT_CODE' },
      refereeReward: { amount: 5, fulfillmentType: 'DISCOUNT_CODE' },
    });
    const { referral } = await svc.referrals.create('app_k', { campaignId, referrerId: 'kai' });
    const context = { ip: null, userAgent: null, deviceId: null, email: null };
    const input = { referralCode: referral.code, refereeId: 'lia', amount: 20, metadata: null, context, operationKey: 'op0123456789abcdef0123456789abcd' };
    // The first try converts, then fails midway (the referee's reward cannot be made): the caller sees an error.
    refereeRewardsUp = false;
    await expect(svc.recorder.record('app_k', input)).rejects.toThrow();
    refereeRewardsUp = true;
    const retried = await svc.recorder.record('app_k', input);
    expect(retried.root).toMatchObject({ conversionId: `conv_${input.operationKey}`, status: 'CONVERTED' });
    expect(retried.rewards.map((r) => [r.side, r.status]).sort()).toEqual([['REFEREE', 'APPROVED'], ['REFERRER', 'APPROVED']]);
    // Again: the same conversion and rewards, nothing more made.
    const again = await svc.recorder.record('app_k', input);
    expect(again.root._id).toBe(retried.root._id);
    expect(again.rewards.map((r) => r.rewardId).sort()).toEqual(retried.rewards.map((r) => r.rewardId).sort());
    expect([...issued.keys()].filter((id) => id.includes(input.operationKey))).toHaveLength(2);
    expect(await conversionModel(svc.db).countDocuments({ appId: 'app_k', campaignId, refereeId: 'lia' })).toBe(1);
    // Counted once, with the reward the first try made: when its rewards were issued, by whichever try issued them.
    expect(await svc.stats.read('app_k', campaignId)).toMatchObject({ totalConversions: 1, completedReferrals: 1, totalRewardValue: 15 });
    expect((await rebuildCampaignStats(svc.stored, svc.logger, { appId: 'app_k', fix: false, settleMs: 0 })).drifted).toEqual([]);
    // Another request (another key, or none) for the same referee is a second conversion: refused.
    await expect(atTheEdge(svc.recorder.record('app_k', { ...input, operationKey: 'ffff0123456789abcdef0123456789ab' }))).rejects.toMatchObject({ code: Code.Aborted });
    await expect(atTheEdge(svc.recorder.record('app_k', { ...input, operationKey: '' }))).rejects.toMatchObject({ code: Code.Aborted });
  });

  it('recounts campaign counters: silent on what the service kept, and closes what a crash left short', async () => {
    const { _id: campaignId } = await campaign('app_c');
    const ann = (await svc.referrals.create('app_c', { campaignId, referrerId: 'ann' })).referral;
    await svc.referrals.create('app_c', { campaignId, referrerId: 'bob' });
    await Promise.all([1, 2, 3].map(() => svc.clicks.record('app_c', { referralCode: ann.code })));
    const context = { ip: null, userAgent: null, deviceId: null, email: null };
    for (const refereeId of ['pat', 'quinn']) await svc.recorder.record('app_c', { referralCode: ann.code, refereeId, amount: null, metadata: null, context, operationKey: '' });
    expect(await svc.stats.read('app_c', campaignId)).toMatchObject({ totalReferrals: 2, totalClicks: 3, totalConversions: 2, completedReferrals: 1 });
    expect((await rebuildCampaignStats(svc.stored, svc.logger, { appId: 'app_c', fix: false, settleMs: 0 })).drifted).toEqual([]);

    // A batch of clicks stored by a process that died before its increments (the totals' and the bucket's).
    const { clickedAt } = (await clickModel(svc.db).findOne({ appId: 'app_c', campaignId }).lean())!;
    await svc.stats.count('app_c', campaignId, { totalClicks: -2 }, clickedAt);
    const found = await rebuildCampaignStats(svc.stored, svc.logger, { appId: 'app_c', fix: true, settleMs: 10 });
    const [hour, day] = bucketTargets(campaignId, clickedAt);
    expect(found.drifted).toEqual([
      { appId: 'app_c', docId: campaignId, field: 'totalClicks', stored: 1, expected: 3, fixed: true },
      // By id: the day (<campaign>:YYYY-MM-DD), then its hour (<campaign>:YYYY-MM-DDTHH).
      ...[day, hour].map((b) => ({ appId: 'app_c', docId: b._id, field: 'clicks', stored: 1, expected: 3, fixed: true })),
    ]);
    expect(await svc.stats.read('app_c', campaignId)).toMatchObject({ totalClicks: 3 });
    expect((await rebuildCampaignStats(svc.stored, svc.logger, { appId: 'app_c', fix: false, settleMs: 0 })).drifted).toEqual([]);
  });

  // No relay runs here: what the writes stored waits in their documents.
  const waiting = async (type: string) => (await svc.outbox.pending()).filter((e) => e.type === type);

  it('stores each change with its events: a referral, its conversion records', async () => {
    const { _id: campaignId } = await campaign('app_e');
    const top = (await svc.referrals.create('app_e', { campaignId, referrerId: 'top' })).referral;
    const ann = (await svc.referrals.create('app_e', { campaignId, referrerId: 'ann' })).referral;
    expect((await waiting('referral.created')).filter((e) => e.docId === top._id || e.docId === ann._id)).toEqual([
      expect.objectContaining({ collection: 'referrals', docId: top._id }),
      expect.objectContaining({ collection: 'referrals', docId: ann._id }),
    ]);
    const context = { ip: null, userAgent: null, deviceId: null, email: null };
    const { root } = await svc.recorder.record('app_e', { referralCode: ann.code, refereeId: 'pat', amount: 5, metadata: null, context, operationKey: '' });
    const created = (await waiting('conversion.created')).filter((e) => JSON.parse(e.json).data.conversionId === root.conversionId);
    expect(created).toEqual([expect.objectContaining({ collection: 'conversions', docId: root._id })]);
    expect(JSON.parse(created[0].json).data).toMatchObject({ referralCode: ann.code, refereeId: 'pat', status: 'CONVERTED', rewardAmount: 10 });
  });

  it("carries a batch of clicks' events on each app's last click of it, in order", async () => {
    const codes = await Promise.all(
      ['app_f', 'app_g'].map(async (appId) => {
        const { _id: campaignId } = await campaign(appId);
        return (await svc.referrals.create(appId, { campaignId, referrerId: 'ann' })).referral.code;
      }),
    );
    // Arriving together (their code keys already known to this process): one group commit, one insert.
    await Promise.all(['app_f', 'app_g'].map((appId, i) => svc.lookup.codeKey(appId, codes[i])));
    const clicks = await Promise.all(
      ['v1', 'v2', 'v3'].flatMap((refereeId) => ['app_f', 'app_g'].map((appId, i) => svc.clicks.record(appId, { referralCode: codes[i], refereeId }))),
    );
    for (const appId of ['app_f', 'app_g']) {
      const own = clicks.filter((c) => c.appId === appId);
      const events = (await waiting('referral.clicked')).filter((e) => JSON.parse(e.json).appId === appId);
      expect(events.map((e) => JSON.parse(e.json).data.clickId)).toEqual(own.map((c) => c._id));
      // All on the app's last click: one document to clear.
      expect(new Set(events.map((e) => e.docId))).toEqual(new Set([own[own.length - 1]._id]));
    }
  });
});
