import { createTestApp, eventually, type TestApp } from '@ris/testing';
import { convert, createCampaign, createReferral } from './support/referral-scenario';

interface Row {
  userId: string;
  email: string | null;
  referrals: number;
  conversions: number;
  rewardValue: number;
  referredBy: string | null;
  coins: number;
  lastActivityAt: string | null;
}

// GET /participants: the app's people, referral and incentive sides together, found, sorted and paged by the server.
describe('participants', () => {
  let app: TestApp;
  const list = async (query = '') => {
    const res = await app.api.get(`/participants${query}`);
    expect(res.status).toBe(200);
    return res.body as { participants: Row[]; pagination: { totalItems: number; totalPages: number } };
  };
  const ids = async (query: string) => (await list(query)).participants.map((p) => p.userId);

  beforeAll(async () => {
    app = await createTestApp('participants');
    const campaign = await createCampaign(app, { name: 'People', refereeReward: { amount: 5, fulfillmentType: 'COUPON_CODE' } });
    const ann = await createReferral(app, campaign.id, 'ann', { referrerEmail: 'Ann@Shop.test' });
    const bob = await createReferral(app, campaign.id, 'bob');
    await convert(app, ann.referralCode, 'cy', { email: 'cy@mail.test' });
    await convert(app, ann.referralCode, 'dee');
    await convert(app, bob.referralCode, 'eve');
    expect((await app.api.post('/incentives/actions', { key: 'buy', name: 'Buy', type: 'STANDARD', coins: 5 })).status).toBe(201);
    for (const [userId, times] of [['zed', 10], ['cy', 6], ['ann', 1]] as const) {
      for (let i = 0; i < times; i += 1) expect((await app.api.post('/incentives/events', { userId, actionKey: 'buy' })).status).toBe(201);
    }
    // An incentive user the referral program never saw joins once the engine's event reaches the directory.
    await eventually(() => ids('?q=zed'), (found) => found.length === 1);
  });

  it('lists referrers, referees and incentive users with their figures, as the other endpoints give them', async () => {
    const { participants, pagination } = await list('?sort=USER_ID');
    expect(participants.map((p) => p.userId)).toEqual(['ann', 'bob', 'cy', 'dee', 'eve', 'zed']);
    expect(pagination).toMatchObject({ totalItems: 6, totalPages: 1 });
    const byId = new Map(participants.map((p) => [p.userId, p]));
    expect(byId.get('ann')).toMatchObject({ email: 'ann@shop.test', referrals: 1, conversions: 2, rewardValue: 20, referredBy: null, coins: 5 });
    expect(byId.get('cy')).toMatchObject({ email: 'cy@mail.test', referrals: 0, conversions: 0, rewardValue: 5, referredBy: 'ann', coins: 30 });
    expect(byId.get('zed')).toMatchObject({ referrals: 0, conversions: 0, rewardValue: 0, referredBy: null, coins: 50 });
    for (const p of participants) {
      const stats = (await app.api.get(`/users/${p.userId}/stats`)).body;
      const balance = (await app.api.get(`/incentives/balances/${p.userId}`)).body.balance;
      expect([p.userId, p.conversions, p.coins]).toEqual([p.userId, stats.conversions, balance.coins]);
      expect(p.lastActivityAt).not.toBeNull();
    }
  });

  it('sorts by referrals, conversions, reward value and coins (the users without a balance after, by id), and pages on the server', async () => {
    expect(await ids('?sort=CONVERSIONS&limit=2')).toEqual(['ann', 'bob']);
    expect(await ids('?sort=REWARD_VALUE')).toEqual(['ann', 'bob', 'cy', 'dee', 'eve', 'zed']);
    expect(await ids('?sort=COINS')).toEqual(['zed', 'cy', 'ann', 'bob', 'dee', 'eve']);
    // A page that straddles the users with a balance and those without one.
    expect(await ids('?sort=COINS&limit=2&page=2')).toEqual(['ann', 'bob']);
    expect(await ids('?sort=COINS&limit=4&page=2')).toEqual(['dee', 'eve']);
    expect((await list('?sort=COINS&limit=4&page=2')).pagination).toMatchObject({ totalItems: 6, totalPages: 2 });
    // The most recent activity first by default: ann's event came last (once the engine's events reach the directory).
    const recent = await eventually(() => ids(''), (found) => found[0] === 'ann');
    expect(recent.slice(0, 3)).toEqual(['ann', 'cy', 'zed']);
  });

  it('finds a participant by a prefix of the user id or of the e-mail address', async () => {
    expect(await ids('?q=d')).toEqual(['dee']);
    expect(await ids('?q=CY@')).toEqual(['cy']);
    expect(await ids('?q=ann@shop&sort=COINS')).toEqual(['ann']);
    expect(await ids('?q=nobody')).toEqual([]);
    expect((await app.api.get('/participants?q=')).status).toBe(400);
    expect((await app.api.get('/participants?sort=HEIGHT')).status).toBe(400);
  });

  it('takes a rejected conversion out of its referrer and referee', async () => {
    const campaign = await createCampaign(app, { name: 'Guarded' });
    const { referralCode } = await createReferral(app, campaign.id, 'sly');
    const cheat = await convert(app, referralCode, 'sly');
    expect((await list('?q=sly')).participants[0]).toMatchObject({ conversions: 1, rewardValue: 10, referredBy: 'sly' });
    const flag = (await app.api.get('/fraud/flags?status=OPEN&limit=100')).body.flags.find((f: { conversionId: string }) => f.conversionId === cheat.conversionId);
    expect((await app.api.post(`/fraud/flags/${flag.id}/resolve`, { decision: 'REJECT' })).status).toBe(200);
    expect((await list('?q=sly')).participants[0]).toMatchObject({ referrals: 1, conversions: 0, rewardValue: 0, referredBy: null });
  });
});
