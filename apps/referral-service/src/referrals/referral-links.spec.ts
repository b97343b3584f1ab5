import { referralLinkKeyModel } from './referral-link-key.model';
import { NO_CONTEXT, serviceOnTestDatabase } from '../testing/service-on-test-database';

// The codes the next draws give, when a test sets them (else random ones as always).
const mockDraws: string[] = [];
jest.mock('./referral-code', () => {
  const actual = jest.requireActual('./referral-code');
  return { ...actual, generateReferralCode: () => mockDraws.shift() ?? actual.generateReferralCode() };
});

// Hosted links name a code and no app: against the real database, a code is
// claimed for one referral of one app, and an app's new referral never gets
// a code another app holds.
describe('hosted link codes', () => {
  let svc: Awaited<ReturnType<typeof serviceOnTestDatabase>>;

  beforeAll(async () => {
    svc = await serviceOnTestDatabase('referral_links');
  });
  afterAll(() => svc.db.drop());

  const campaignOf = async (appId: string, landingUrl: string | null = 'https://shop.example.com/') =>
    (await svc.campaigns.create(appId, { name: 'c', referrerReward: { amount: 1, fulfillmentType: 'CUSTOM' }, landingUrl }))._id;

  it('resolves a new referral’s code, in any case, to its app, referral and campaign', async () => {
    const campaignId = await campaignOf('app_a');
    const { referral } = await svc.referrals.create('app_a', { campaignId, referrerId: 'ann' });
    const link = await svc.referrals.resolveLink(referral.code.toLowerCase());
    expect(link).toMatchObject({ appId: 'app_a', code: referral.code, referralId: referral._id, referrerId: 'ann' });
    expect([link.campaign._id, link.campaign.landingUrl]).toEqual([campaignId, 'https://shop.example.com/']);
    await expect(svc.referrals.resolveLink('NOSUCHCODE')).rejects.toMatchObject({ message: expect.stringContaining('not found') });
  });

  it('draws another code when another app holds the one drawn', async () => {
    const campaignId = await campaignOf('app_b');
    const keys = referralLinkKeyModel(svc.db);
    // app_x holds TAKENAA2, which the next two draws give.
    await keys.collection.insertOne({ _id: 'TAKENAA2', appId: 'app_x', referralId: 'ref_x', campaignId: 'cmp_x', referrerId: 'x' } as never);
    mockDraws.push('TAKENAA2', 'TAKENAA2', 'FREEBB33');
    const { referral } = await svc.referrals.create('app_b', { campaignId, referrerId: 'bob' });
    expect(referral.code).toBe('FREEBB33');
    expect(await keys.collection.findOne({ _id: 'TAKENAA2' } as never)).toMatchObject({ appId: 'app_x', referralId: 'ref_x' });
    expect((await svc.referrals.resolveLink('FREEBB33')).appId).toBe('app_b');
  });

  it('claims the code of a referral made before hosted links when it is asked for again', async () => {
    const campaignId = await campaignOf('app_c');
    const { referral } = await svc.referrals.create('app_c', { campaignId, referrerId: 'cid' });
    await referralLinkKeyModel(svc.db).collection.deleteOne({ _id: referral.code } as never);
    await expect(svc.referrals.resolveLink(referral.code)).rejects.toBeDefined();
    const again = await svc.referrals.create('app_c', { campaignId, referrerId: 'cid' });
    expect(again.created).toBe(false);
    expect((await svc.referrals.resolveLink(referral.code)).referralId).toBe(referral._id);
  });

  it('records clicks of a resolved code in the code’s own app', async () => {
    const campaignId = await campaignOf('app_d');
    const { referral } = await svc.referrals.create('app_d', { campaignId, referrerId: 'dee' });
    const link = await svc.referrals.resolveLink(referral.code);
    const click = await svc.clicks.record(link.appId, { referralCode: link.code, context: NO_CONTEXT });
    expect([click.appId, click.code]).toEqual(['app_d', referral.code]);
  });
});
