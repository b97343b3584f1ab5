import { Code, ConnectError } from '@connectrpc/connect';
import { CampaignStatus, FulfillmentType } from '@ris/contracts';
import { errorReason } from '@ris/rpc';
import { serviceOnTestDatabase } from './testing/service-on-test-database';

/** The error a call failed with, as the gateway reads it: code, reason, message, details. */
async function failure(call: Promise<unknown>) {
  const err = await call.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!(err instanceof ConnectError)) throw new Error(`expected a ConnectError, got ${String(err)}`);
  return { code: Code[err.code], ...errorReason(err), message: err.rawMessage };
}

// The service as the gateway calls it (its own interceptors: the tenant of
// each call, domain errors into Connect codes), on the real database.
describe('the referral service at its edge', () => {
  let svc: Awaited<ReturnType<typeof serviceOnTestDatabase>>;

  beforeAll(async () => {
    svc = await serviceOnTestDatabase('referral_rpc');
  });
  afterAll(() => svc.db.drop());

  const campaignOf = async (appId: string, status = CampaignStatus.ACTIVE) =>
    (
      await svc.rpc.createCampaign({
        appId,
        name: 'c',
        status,
        referrerReward: { amount: 5, fulfillmentType: FulfillmentType.CUSTOM },
        landingUrl: 'https://shop.example.com/',
      })
    ).campaign!.id;

  it('acts for the app of each call, and refuses a call without one as requiredField did', async () => {
    const campaignId = await campaignOf(' app_a ');
    expect((await svc.rpc.getCampaign({ appId: 'app_a', campaignId })).campaign?.name).toBe('c');
    expect(await failure(svc.rpc.getCampaign({ appId: 'app_b', campaignId }))).toEqual({
      code: 'NotFound',
      reason: 'NOT_FOUND',
      details: { campaignId },
      message: 'Campaign not found',
    });
    expect(await failure(svc.rpc.getCampaign({ appId: '  ', campaignId }))).toEqual({ code: 'InvalidArgument', reason: 'VALIDATION_ERROR', message: 'appId is required' });
  });

  it("turns the domain's refusals into the codes, reasons and details the gateway maps", async () => {
    const paused = await campaignOf('app_c', CampaignStatus.PAUSED);
    expect(await failure(svc.rpc.createReferral({ appId: 'app_c', campaignId: paused, referrerId: 'ann' }))).toEqual({
      code: 'FailedPrecondition',
      reason: 'CAMPAIGN_INACTIVE',
      details: { campaignId: paused, status: 'PAUSED', effectiveStatus: 'PAUSED' },
      message: `Campaign ${paused} is PAUSED, not ACTIVE.`,
    });
    const campaignId = await campaignOf('app_c');
    const { referral } = await svc.rpc.createReferral({ appId: 'app_c', campaignId, referrerId: 'bob' });
    await svc.rpc.recordConversion({ appId: 'app_c', referralCode: referral!.referralCode, refereeId: 'pat' });
    expect(await failure(svc.rpc.recordConversion({ appId: 'app_c', referralCode: referral!.referralCode, refereeId: 'pat' }))).toMatchObject({
      code: 'Aborted',
      reason: 'ALREADY_CONVERTED',
      details: { refereeId: 'pat', campaignId, referralCode: referral!.referralCode },
    });
  });

  it('resolves a hosted link without an app: its code finds the app', async () => {
    const campaignId = await campaignOf('app_d');
    const { referral } = await svc.rpc.createReferral({ appId: 'app_d', campaignId, referrerId: 'dee' });
    const link = await svc.rpc.resolveReferralLink({ referralCode: referral!.referralCode.toLowerCase() });
    expect([link.appId, link.referralId, link.campaign?.id, link.landingUrl]).toEqual(['app_d', referral!.id, campaignId, 'https://shop.example.com/']);
  });

  it("records a batch of several apps' clicks, each in its own app, a click without one failing alone", async () => {
    const codes = await Promise.all(
      ['app_e', 'app_f'].map(async (appId) => {
        const { referral } = await svc.rpc.createReferral({ appId, campaignId: await campaignOf(appId), referrerId: 'eve' });
        return referral!.referralCode;
      }),
    );
    const { outcomes } = await svc.rpc.recordClicks({
      clicks: [
        { appId: 'app_e', referralCode: codes[0] },
        { appId: ' ', referralCode: codes[0] },
        { appId: 'app_f', referralCode: codes[1] },
        { appId: 'app_e', referralCode: codes[1] },
      ],
    });
    expect(outcomes.map((o) => (o.outcome.case === 'click' ? o.outcome.value.referralCode : o.outcome.value?.detail?.reason))).toEqual([
      codes[0],
      'VALIDATION_ERROR',
      codes[1],
      'NOT_FOUND',
    ]);
    expect((await svc.rpc.getUserStats({ appId: 'app_f', userId: 'eve' })).clicks).toBe(1);
  });
});
