import { participantModel } from './participant.model';
import { rebuildParticipants } from './participants-rebuild';
import { NO_CONTEXT, serviceOnTestDatabase } from '../testing/service-on-test-database';

// The participants directory against the real database: kept on write with
// the counters, and recounted from the referral records the same (so an
// upgrade fills it, and drift shows).
describe('the participants directory', () => {
  let svc: Awaited<ReturnType<typeof serviceOnTestDatabase>>;
  const appId = 'app_people';

  beforeAll(async () => {
    svc = await serviceOnTestDatabase('participants', {
      scoreConversion: async (req) =>
        req.refereeId === 'sly'
          ? { assessment: { riskScore: 90, reasons: ['SELF_REFERRAL'], flagged: true, warning: 'Same person' } }
          : { assessment: { riskScore: 0, reasons: [], flagged: false } },
    });
    const { _id: campaignId } = await svc.campaigns.create(appId, {
      name: 'c',
      referrerReward: { amount: 10, fulfillmentType: 'DISCOUNT_CODE' },
      refereeReward: { amount: 4, fulfillmentType: 'COUPON_CODE' },
      levels: [{ level: 2, amount: 3 }],
    });
    const convert = (code: string, refereeId: string, email: string | null = null) =>
      svc.recorder.record(appId, { referralCode: code, refereeId, amount: null, metadata: null, context: { ...NO_CONTEXT, email }, operationKey: '' });
    const ann = (await svc.referrals.create(appId, { campaignId, referrerId: 'ann', referrerEmail: 'Ann@Shop.test' })).referral;
    await convert(ann.code, 'bob', 'bob@mail.test');
    const bob = (await svc.referrals.create(appId, { campaignId, referrerId: 'bob' })).referral;
    await convert(bob.code, 'cy'); // bob at level 1, ann at level 2
    const sly = (await svc.referrals.create(appId, { campaignId, referrerId: 'sly' })).referral;
    await convert(sly.code, 'sly');
    const flag = (await svc.flags.list(appId, { page: 1, limit: 10 }, { status: 'OPEN' })).items[0];
    await svc.flags.resolve(appId, flag._id, 'REJECT', null);
  });

  afterAll(() => svc.db.drop());

  // (An unset address or referrer reads as null: the API answers both alike.)
  const everyone = async () =>
    (await svc.participants.list(appId, {}, 'USER_ID', { page: 1, limit: 100 })).items.map((p) => [p.userId, p.email ?? null, p.referrals, p.conversions, p.rewardValue, p.referredBy ?? null]);

  it('keeps each person on write: referrals, conversions, reward value at every level and side, who referred them; a rejection taken out', async () => {
    expect(await everyone()).toEqual([
      ['ann', 'ann@shop.test', 1, 1, 10 + 3, null],
      ['bob', 'bob@mail.test', 1, 1, 4 + 10, 'ann'],
      ['cy', null, 0, 0, 4, 'bob'],
      ['sly', null, 1, 0, 0, null],
    ]);
  });

  it('recounts the same from the records, and fills an empty directory', async () => {
    expect((await rebuildParticipants(svc.stored, svc.logger, { appId, fix: false })).drifted).toEqual([]);
    const before = await everyone();
    await participantModel(svc.db).deleteMany({ appId });
    const report = await rebuildParticipants(svc.stored, svc.logger, { appId, fix: true });
    expect([report.participants, report.fixed]).toEqual([4, 4]);
    // Everything but a referee's address, which a conversion sends and no record keeps (the next request brings it back).
    expect(await everyone()).toEqual(before.map((row) => (row[0] === 'bob' ? [row[0], null, ...row.slice(2)] : row)));
    expect((await rebuildParticipants(svc.stored, svc.logger, { appId, fix: false })).drifted).toEqual([]);
  });
});
