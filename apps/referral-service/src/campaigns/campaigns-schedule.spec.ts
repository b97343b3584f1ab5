import { timestampDate, timestampFromDate } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError } from '@connectrpc/connect';
import { CampaignEffectiveStatus, CampaignStatus, FulfillmentType } from '@ris/contracts';
import { errorReason } from '@ris/rpc';
import { serviceOnTestDatabase } from '../testing/service-on-test-database';

const DAY_MS = 86_400_000;
// Bounds a day away from now: the rule is decided by the clock, and a day is far from any test's run time.
const inADay = () => timestampFromDate(new Date(Date.now() + DAY_MS));
const aDayAgo = () => timestampFromDate(new Date(Date.now() - DAY_MS));

/** The Connect code and reason a call failed with (null when it succeeded). */
async function refusal(call: Promise<unknown>) {
  const err = await call.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (err === null) return null;
  if (!(err instanceof ConnectError)) throw err;
  return { code: Code[err.code], ...errorReason(err) };
}

// The schedule rule through the service's edge, as the gateway calls it, on the real database:
// new referrals and conversions only inside [startsAt, endsAt), whatever else reads the campaign.
describe('a campaign’s schedule', () => {
  let svc: Awaited<ReturnType<typeof serviceOnTestDatabase>>;
  const appId = 'app_schedule';

  beforeAll(async () => {
    svc = await serviceOnTestDatabase('referral_campaign_schedule');
  });
  afterAll(() => svc.db.drop());

  const campaign = async (schedule: { startsAt?: ReturnType<typeof inADay>; endsAt?: ReturnType<typeof inADay> }) =>
    (await svc.rpc.createCampaign({ appId, name: 'Spring', status: CampaignStatus.ACTIVE, referrerReward: { amount: 5, fulfillmentType: FulfillmentType.CUSTOM }, ...schedule }))
      .campaign!;

  /** A referral made while the campaign ran without a schedule, then the schedule set. */
  async function referralThenSchedule(schedule: Parameters<typeof campaign>[0]) {
    const { id: campaignId } = await campaign({});
    const { referral } = await svc.rpc.createReferral({ appId, campaignId, referrerId: `ref-${campaignId}` });
    await svc.rpc.updateCampaign({ appId, campaignId, ...schedule });
    return { campaignId, code: referral!.referralCode };
  }

  it('without one, takes referrals and conversions and reads ACTIVE', async () => {
    const created = await campaign({});
    expect([created.startsAt, created.endsAt, created.effectiveStatus]).toEqual([undefined, undefined, CampaignEffectiveStatus.ACTIVE]);
    const { referral } = await svc.rpc.createReferral({ appId, campaignId: created.id, referrerId: 'ann' });
    const converted = await svc.rpc.recordConversion({ appId, referralCode: referral!.referralCode, refereeId: 'ann-friend' });
    expect(converted.rewardCreated).toBe(true);
  });

  it('before its start: SCHEDULED, no new referral and no conversion (CAMPAIGN_INACTIVE), its status still ACTIVE', async () => {
    const startsAt = inADay();
    const created = await campaign({ startsAt });
    expect([created.status, created.effectiveStatus, timestampDate(created.startsAt!)]).toEqual([CampaignStatus.ACTIVE, CampaignEffectiveStatus.SCHEDULED, timestampDate(startsAt)]);
    expect(await refusal(svc.rpc.createReferral({ appId, campaignId: created.id, referrerId: 'bob' }))).toEqual({
      code: 'FailedPrecondition',
      reason: 'CAMPAIGN_INACTIVE',
      details: { campaignId: created.id, status: 'ACTIVE', effectiveStatus: 'SCHEDULED' },
    });

    const { campaignId, code } = await referralThenSchedule({ startsAt: inADay() });
    expect(await refusal(svc.rpc.recordConversion({ appId, referralCode: code, refereeId: 'bob-friend' }))).toMatchObject({ reason: 'CAMPAIGN_INACTIVE' });
    // The campaign's referrals show its effective status too, and so does its hosted link (which then counts no visit).
    const { referrals } = await svc.rpc.listReferrals({ appId, campaignId });
    expect(referrals[0].campaign?.effectiveStatus).toBe(CampaignEffectiveStatus.SCHEDULED);
    expect((await svc.rpc.resolveReferralLink({ referralCode: code })).campaign?.effectiveStatus).toBe(CampaignEffectiveStatus.SCHEDULED);
  });

  it('after its end: ENDED, no new referral and no conversion, until the end is removed', async () => {
    const ended = await campaign({ endsAt: aDayAgo() });
    expect([ended.status, ended.effectiveStatus]).toEqual([CampaignStatus.ACTIVE, CampaignEffectiveStatus.ENDED]);
    expect(await refusal(svc.rpc.createReferral({ appId, campaignId: ended.id, referrerId: 'cat' }))).toMatchObject({ reason: 'CAMPAIGN_INACTIVE', details: { effectiveStatus: 'ENDED' } });

    const { campaignId, code } = await referralThenSchedule({ startsAt: timestampFromDate(new Date(Date.now() - 2 * DAY_MS)), endsAt: aDayAgo() });
    expect(await refusal(svc.rpc.recordConversion({ appId, referralCode: code, refereeId: 'cat-friend' }))).toMatchObject({ reason: 'CAMPAIGN_INACTIVE' });
    const cleared = await svc.rpc.updateCampaign({ appId, campaignId, clearEndsAt: true });
    expect([cleared.campaign?.endsAt, cleared.campaign?.effectiveStatus]).toEqual([undefined, CampaignEffectiveStatus.ACTIVE]);
    expect(await refusal(svc.rpc.recordConversion({ appId, referralCode: code, refereeId: 'cat-friend' }))).toBeNull();
  });

  it('is kept by a change of other fields, and cleared bound by bound', async () => {
    const created = await campaign({ startsAt: inADay(), endsAt: timestampFromDate(new Date(Date.now() + 2 * DAY_MS)) });
    const renamed = (await svc.rpc.updateCampaign({ appId, campaignId: created.id, name: 'Summer' })).campaign!;
    expect([renamed.startsAt, renamed.endsAt]).toEqual([created.startsAt, created.endsAt]);
    const started = (await svc.rpc.updateCampaign({ appId, campaignId: created.id, clearStartsAt: true })).campaign!;
    expect([started.startsAt, started.endsAt, started.effectiveStatus]).toEqual([undefined, created.endsAt, CampaignEffectiveStatus.ACTIVE]);
    expect(await refusal(svc.rpc.createReferral({ appId, campaignId: created.id, referrerId: 'dan' }))).toBeNull();
  });

  it('refuses an end not after its start (INVALID_RANGE naming endsAt), against the stored bound too', async () => {
    const startsAt = inADay();
    expect(await refusal(svc.rpc.createCampaign({ appId, name: 'Backwards', referrerReward: { amount: 1, fulfillmentType: FulfillmentType.CUSTOM }, startsAt, endsAt: startsAt }))).toMatchObject({
      code: 'FailedPrecondition',
      reason: 'INVALID_RANGE',
      details: { field: 'endsAt' },
    });
    const created = await campaign({ startsAt });
    expect(await refusal(svc.rpc.updateCampaign({ appId, campaignId: created.id, endsAt: aDayAgo() }))).toMatchObject({ reason: 'INVALID_RANGE', details: { field: 'endsAt' } });
    expect((await svc.rpc.getCampaign({ appId, campaignId: created.id })).campaign?.endsAt).toBeUndefined();
  });

  it('stores any bound of the years 0001 to 9999 (UTC) as sent, and refuses one outside them (INVALID_RANGE)', async () => {
    const earliest = timestampFromDate(new Date('0001-01-01T00:00:00Z'));
    const latest = timestampFromDate(new Date('9999-12-31T23:59:59.999Z'));
    const created = await campaign({ startsAt: earliest, endsAt: latest });
    const read = (await svc.rpc.getCampaign({ appId, campaignId: created.id })).campaign!;
    expect([timestampDate(read.startsAt!).toISOString(), timestampDate(read.endsAt!).toISOString()]).toEqual(['0001-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z']);
    expect(await refusal(svc.rpc.updateCampaign({ appId, campaignId: created.id, endsAt: timestampFromDate(new Date('9999-12-31T23:59:00-01:00')) }))).toMatchObject({
      reason: 'INVALID_RANGE',
      details: { field: 'endsAt' },
    });
  });

  it('lists by effective status as the rule decides it, campaigns stored before schedules included', async () => {
    const listing = 'app_schedule_list';
    const [past, future, later] = [aDayAgo(), inADay(), timestampFromDate(new Date(Date.now() + 2 * DAY_MS))];
    const schedules = [{}, { startsAt: future }, { startsAt: past }, { endsAt: past }, { endsAt: future }, { startsAt: past, endsAt: future }, { startsAt: future, endsAt: later }];
    const made: Array<{ id: string; effectiveStatus: CampaignEffectiveStatus }> = [];
    for (const status of [CampaignStatus.ACTIVE, CampaignStatus.PAUSED, CampaignStatus.ENDED]) {
      for (const schedule of schedules) {
        const { campaign } = await svc.rpc.createCampaign({ appId: listing, name: 'c', status, referrerReward: { amount: 1, fulfillmentType: FulfillmentType.CUSTOM }, ...schedule });
        made.push({ id: campaign!.id, effectiveStatus: campaign!.effectiveStatus });
      }
    }
    // Stored before schedules existed: no startsAt or endsAt field at all.
    const now = new Date();
    await svc.db.collection('campaigns').insertOne({
      _id: 'cmp_before_schedules' as never,
      appId: listing,
      name: 'old',
      status: 'ACTIVE',
      referrerReward: { amount: 1, fulfillmentType: 'CUSTOM' },
      refereeReward: null,
      levels: [],
      attributionWindowDays: 30,
      maxRewardsPerReferrer: null,
      fraud: { flagThreshold: 50 },
      createdAt: now,
      updatedAt: now,
    });
    made.push({ id: 'cmp_before_schedules', effectiveStatus: CampaignEffectiveStatus.ACTIVE });

    for (const effective of [CampaignEffectiveStatus.ACTIVE, CampaignEffectiveStatus.PAUSED, CampaignEffectiveStatus.ENDED, CampaignEffectiveStatus.SCHEDULED]) {
      const { campaigns } = await svc.rpc.listCampaigns({ appId: listing, page: { page: 1, limit: 100 }, effectiveStatus: effective });
      const expected = made.filter((m) => m.effectiveStatus === effective).map((m) => m.id);
      expect([CampaignEffectiveStatus[effective], campaigns.map((c) => c.id).sort()]).toEqual([CampaignEffectiveStatus[effective], expected.sort()]);
      expect(expected.length).toBeGreaterThan(0);
    }
    const both = await svc.rpc.listCampaigns({ appId: listing, page: { page: 1, limit: 100 }, status: CampaignStatus.PAUSED, effectiveStatus: CampaignEffectiveStatus.ENDED });
    // Paused, and past its end: the one { endsAt: past } of the PAUSED ones.
    expect(both.campaigns.map((c) => [c.status, c.effectiveStatus])).toEqual([[CampaignStatus.PAUSED, CampaignEffectiveStatus.ENDED]]);
  });
});
