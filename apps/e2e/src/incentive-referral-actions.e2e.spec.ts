import { randomUUID } from 'node:crypto';
import { createTestApp, eventually, publishEvents, readEvents, type TestApp } from '@ris/testing';

const reward = { amount: 10, fulfillmentType: 'DISCOUNT_CODE' };

describe('referral action types (fired from referral events, no API call)', () => {
  let app: TestApp;
  let campaignId: string;

  beforeAll(async () => {
    app = await createTestApp('referral actions');
    campaignId = (await app.api.post('/campaigns', { name: 'Referral actions', referrerReward: reward })).body.campaign.id;
    await app.api.post('/incentives/actions', { key: 'code', name: 'Created a referral code', type: 'REFERRAL_CODE_GENERATE', coins: 50, xp: 10 });
    await app.api.post('/incentives/actions', { key: 'clicked', name: 'Link clicked', type: 'REFERRAL_CLICK', coins: 1, maxRepeats: 2 });
    await app.api.post('/incentives/actions', { key: 'converted', name: 'Referee converted', type: 'REFERRAL_REFEREE_ACTION', coins: 100, xp: 20 });
  });

  const balance = async (userId: string) => (await app.api.get(`/incentives/balances/${userId}`)).body.balance;

  it('rewards the referrer of a referral created through the gateway, with no other call', async () => {
    const referral = await app.api.post('/referrals', { campaignId, referrerId: 'alice' });
    expect(referral.status).toBe(201);
    const earned = await eventually(() => balance('alice'), (b) => b.coins === 50);
    expect(earned).toMatchObject({ coins: 50, xp: 10, rewardedEvents: 1 });
    const events = (await app.api.get('/incentives/events?userId=alice')).body.events;
    expect(events).toEqual([
      expect.objectContaining({
        actionKey: 'code',
        source: 'REFERRAL',
        rewarded: { coins: 50, xp: 10, tokens: 0 },
        metadata: expect.objectContaining({ sourceEvent: 'referral.created', referralId: referral.body.referralId, referralCode: referral.body.referralCode, campaignId }),
      }),
    ]);
  });

  it('rewards clicks on the referrer\'s link, within the action\'s maxRepeats', async () => {
    const { referralCode } = (await app.api.post('/referrals', { campaignId, referrerId: 'bob' })).body;
    for (let i = 0; i < 3; i += 1) expect((await app.api.post('/clicks', { referralCode, refereeId: `visitor-${i}` })).status).toBe(200);
    const events = await eventually(
      async (): Promise<Array<{ reason: string | null }>> => (await app.api.get('/incentives/events?userId=bob&actionKey=clicked')).body.events,
      (list) => list.length === 3,
    );
    expect(events.map((e) => e.reason).sort()).toEqual(['MAX_REPEATS', null, null]);
    expect(await balance('bob')).toMatchObject({ coins: 52 });
  });

  it('applies each referral event once even when it is delivered twice', async () => {
    const referral = (await app.api.post('/referrals', { campaignId, referrerId: 'carol' })).body;
    await eventually(() => balance('carol'), (b) => b.coins === 50);
    const [original] = await readEvents('referral.created', (e) => e.data.referralId === referral.referralId);
    await publishEvents([original], { dedupe: false });
    // The consumer takes referral.created in order: once a later one is applied, so is the duplicate.
    await app.api.post('/referrals', { campaignId, referrerId: 'carol-after' });
    await eventually(() => balance('carol-after'), (b) => b.coins === 50);
    expect(await balance('carol')).toMatchObject({ coins: 50, rewardedEvents: 1 });
    expect((await app.api.get('/incentives/events?userId=carol')).body.events).toHaveLength(1);
  });

  it('rewards the direct referrer of a conversion (level 1), not the higher levels', async () => {
    // The shape of conversion.created in docs/events.md, published as the referral service does.
    const conversion = (level: number, referrerId: string) => ({
      id: randomUUID(),
      type: 'conversion.created',
      appId: app.appId,
      occurredAt: new Date().toISOString(),
      data: {
        conversionId: `cnv_${randomUUID()}`,
        referralId: 'ref_x',
        referralCode: 'ABCDEFGH',
        originalReferralCode: 'ABCDEFGH',
        campaignId,
        referrerId,
        refereeId: 'newcomer',
        level,
        status: 'CONVERTED',
        amount: 20,
        rewardAmount: 10,
        isFlagged: false,
        riskScore: null,
        reasons: [],
        warning: null,
        convertedAt: new Date().toISOString(),
      },
    });
    const direct = conversion(1, 'dana');
    await publishEvents([direct], { dedupe: false });
    await publishEvents([conversion(2, 'erin')], { dedupe: false });
    // Delivered twice: still once.
    await publishEvents([direct], { dedupe: false });
    const earned = await eventually(() => balance('dana'), (b) => b.coins === 100);
    expect(earned).toMatchObject({ coins: 100, xp: 20, referrals: 1 });
    // Published last, applied last (one consumer, in order): the duplicate and the level-2 event are behind us then.
    await publishEvents([conversion(1, 'gus')], { dedupe: false });
    await eventually(() => balance('gus'), (b) => b.coins === 100);
    expect(await balance('dana')).toMatchObject({ coins: 100, referrals: 1 });
    expect(await balance('erin')).toMatchObject({ coins: 0, xp: 0 });
  });

  it('rewards the direct referrer of a conversion recorded through the gateway', async () => {
    const { referralCode } = (await app.api.post('/referrals', { campaignId, referrerId: 'frank' })).body;
    const conversion = await app.api.post('/conversions', { referralCode, refereeId: 'frank-friend', amount: 30 });
    expect(conversion.status).toBe(201);
    const earned = await eventually(() => balance('frank'), (b) => b.referrals === 1);
    // 50 for creating the code, 100 for the conversion.
    expect(earned).toMatchObject({ coins: 150, xp: 30, referrals: 1 });
  });

  it("fires nothing for another app's referral activity", async () => {
    const other = await createTestApp('referral actions other');
    const otherCampaign = (await other.api.post('/campaigns', { name: 'Other', referrerReward: reward })).body.campaign.id;
    await other.api.post('/incentives/actions', { key: 'code', name: 'Created a referral code', type: 'REFERRAL_CODE_GENERATE', coins: 7 });
    await other.api.post('/referrals', { campaignId: otherCampaign, referrerId: 'zed' });
    // Applied in the other app, with the other app's action: the event has been handled...
    const inOther = await eventually(async () => (await other.api.get('/incentives/balances/zed')).body.balance, (b) => b.coins === 7);
    expect(inOther).toMatchObject({ coins: 7 });
    // ...and nothing of it reached this app, whose action for the same type pays 50.
    expect(await balance('zed')).toMatchObject({ coins: 0 });
  });
});
