import { conversionModel } from '../conversions/conversion.model';
import { rebuildCampaignStats } from '../stats/stats-rebuild';
import { NO_CONTEXT, serviceOnTestDatabase } from '../testing/service-on-test-database';

// A rejected conversion against the real database: REJECTED, and out of
// every figure exactly once (a second settle, the recovery pass, change
// nothing), including conversions rejected before REJECTED was a status.
describe('rejected conversions', () => {
  let svc: Awaited<ReturnType<typeof serviceOnTestDatabase>>;

  beforeAll(async () => {
    // Every conversion whose referee is "sly…" is flagged.
    svc = await serviceOnTestDatabase('rejected', {
      scoreConversion: async (req) =>
        req.refereeId.startsWith('sly')
          ? { assessment: { riskScore: 90, reasons: ['SELF_REFERRAL'], flagged: true, warning: 'Same person' } }
          : { assessment: { riskScore: 0, reasons: [], flagged: false } },
    });
  });

  afterAll(() => svc.db.drop());

  async function flaggedConversion(appId: string) {
    const { _id: campaignId } = await svc.campaigns.create(appId, { name: 'c', referrerReward: { amount: 10, fulfillmentType: 'DISCOUNT_CODE' } });
    const { referral } = await svc.referrals.create(appId, { campaignId, referrerId: 'sly' });
    const convert = (refereeId: string) => svc.recorder.record(appId, { referralCode: referral.code, refereeId, amount: null, metadata: null, context: NO_CONTEXT, operationKey: '' });
    const outcome = await convert('sly-2');
    const flag = (await svc.flags.list(appId, { page: 1, limit: 10 }, { status: 'OPEN' })).items[0];
    return { campaignId, referral, convert, conversionId: outcome.root.conversionId, flag };
  }

  const figures = async (appId: string, campaignId: string, referralId: string) => ({
    campaign: await svc.stats.read(appId, campaignId),
    referral: (await svc.stored.counters.findById(appId, referralId))?.conversions,
  });

  it('reads REJECTED once its flag is rejected, and leaves the figures exactly once', async () => {
    const { campaignId, referral, conversionId, flag } = await flaggedConversion('app_r');
    expect(await figures('app_r', campaignId, referral._id)).toMatchObject({ campaign: { totalConversions: 1, completedReferrals: 1, totalRewardValue: 10 }, referral: { L1: 1 } });

    await svc.flags.resolve('app_r', flag._id, 'REJECT', 'same person');
    expect((await svc.stored.conversions.recordsOf('app_r', conversionId)).map((r) => [r.status, r.review])).toEqual([['REJECTED', 'REJECTED']]);
    const after = { campaign: { totalConversions: 0, completedReferrals: 0, totalRewardValue: 0 }, referral: { L1: 0 } };
    expect(await figures('app_r', campaignId, referral._id)).toMatchObject(after);
    // Settling again (a retry, the recovery pass) takes nothing out twice.
    await svc.conversionRewards.settle('app_r', conversionId);
    await svc.conversionRewards.settle('app_r', conversionId);
    expect(await figures('app_r', campaignId, referral._id)).toMatchObject(after);
    // The recount agrees with what was kept.
    expect((await rebuildCampaignStats(svc.stored, svc.logger, { appId: 'app_r', fix: false, settleMs: 0 })).drifted).toEqual([]);
  });

  it('marks conversions rejected before REJECTED was a status, and takes them out of the figures, once', async () => {
    const { campaignId, referral, conversionId, flag } = await flaggedConversion('app_old');
    // As the earlier release left a rejection: the flag and review REJECTED, the records FLAGGED, still counted.
    await svc.stored.flags.resolve('app_old', flag._id, { status: 'REJECTED', note: null, resolvedBy: null });
    await svc.stored.flags.effectsApplied('app_old', flag._id);
    const hourAgo = new Date(Date.now() - 3_600_000);
    await conversionModel(svc.db).updateMany({ appId: 'app_old', conversionId }, { $set: { review: 'REJECTED', rewardsSettled: true, convertedAt: hourAgo } });
    expect((await svc.stats.read('app_old', campaignId))?.totalConversions).toBe(1);

    await svc.recovery.runOnce();
    await svc.recovery.runOnce();
    expect((await svc.stored.conversions.recordsOf('app_old', conversionId)).map((r) => r.status)).toEqual(['REJECTED']);
    expect(await figures('app_old', campaignId, referral._id)).toMatchObject({ campaign: { totalConversions: 0, completedReferrals: 0 }, referral: { L1: 0 } });
  });

  it("completes the referral again with a conversion after its only one was rejected; keeps it completed when another stands", async () => {
    const { campaignId, referral, convert, flag } = await flaggedConversion('app_c');
    await svc.flags.resolve('app_c', flag._id, 'REJECT', null);
    await convert('ann');
    expect((await svc.stats.read('app_c', campaignId))).toMatchObject({ totalConversions: 1, completedReferrals: 1 });
    const second = await convert('sly-3');
    const secondFlag = (await svc.flags.list('app_c', { page: 1, limit: 10 }, { status: 'OPEN' })).items.find((f) => f.conversionId === second.root.conversionId);
    await svc.flags.resolve('app_c', secondFlag!._id, 'REJECT', null);
    expect((await svc.stats.read('app_c', campaignId))).toMatchObject({ totalConversions: 1, completedReferrals: 1 });
    expect((await svc.stored.counters.findById('app_c', referral._id))?.conversions).toMatchObject({ L1: 1 });
    expect((await rebuildCampaignStats(svc.stored, svc.logger, { appId: 'app_c', fix: false, settleMs: 0 })).drifted).toEqual([]);
  });
});
