import { createTestApp, type ApiResponse, type TestApp } from '@ris/testing';

const statusAndCode = (res: ApiResponse) => [res.status, res.body?.error?.code];

// Who reached what: a badge's holders, a milestone's users, the users at a level.
describe('who reached what (badge holders, milestone filter, balances by level)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp('who reached');
    const created = await Promise.all([
      app.api.post('/incentives/badges', { key: 'gold', name: 'Gold' }),
      app.api.post('/incentives/actions', { key: 'play', name: 'Play', type: 'STANDARD', coins: 1, xp: 10 }),
      app.api.post('/incentives/milestones/definitions', { key: 'first', name: 'First game', metric: 'EVENTS', threshold: 1 }),
    ]);
    expect(created.map((r) => r.status)).toEqual([201, 201, 201]);
    expect((await app.api.post('/incentives/levels', { level: 1, name: 'One', xpThreshold: 10, rewards: { badgeKey: 'gold' } })).status).toBe(201);
    expect((await app.api.post('/incentives/levels', { level: 2, name: 'Two', xpThreshold: 50 })).status).toBe(201);
    // In order, so the newest award is known: ann (level 1), bob (level 2), cat (level 0), dan by hand.
    expect((await app.api.post('/incentives/events', { userId: 'ann', actionKey: 'play' })).status).toBe(201);
    expect((await app.api.post('/incentives/balances/bob/adjustments', { xp: 60, note: 'Imported' })).status).toBe(201);
    expect((await app.api.post('/incentives/balances/cat/adjustments', { coins: 5, note: 'Welcome' })).status).toBe(201);
    expect((await app.api.post('/incentives/badges/gold/award', { userId: 'dan' })).status).toBe(201);
  });

  it("lists a badge's holders, newest award first, with how each got it, paginated", async () => {
    const res = await app.api.get('/incentives/badges/gold/holders');
    expect(res.status).toBe(200);
    expect(res.body.holders.map((h: { userId: string; source: string; sourceId: string | null }) => [h.userId, h.source, h.sourceId])).toEqual([
      ['dan', 'MANUAL', null],
      ['bob', 'LEVEL', '1'],
      ['ann', 'LEVEL', '1'],
    ]);
    expect(res.body.holders[0]).toMatchObject({ key: 'gold', name: 'Gold', awardedAt: expect.any(String) });
    expect(res.body.pagination).toEqual({ page: 1, limit: 25, totalItems: 3, totalPages: 1 });
    const second = await app.api.get('/incentives/badges/gold/holders?limit=1&page=2');
    expect([second.body.holders.map((h: { userId: string }) => h.userId), second.body.pagination.totalPages]).toEqual([['bob'], 3]);
    expect(statusAndCode(await app.api.get('/incentives/badges/silver/holders'))).toEqual([404, 'NOT_FOUND']);
  });

  it('lists who reached a milestone with key=, alone or with userId', async () => {
    const byKey = await app.api.get('/incentives/milestones?key=first');
    expect(byKey.body.milestones.map((m: { userId: string; key: string }) => [m.userId, m.key])).toEqual([['ann', 'first']]);
    expect((await app.api.get('/incentives/milestones?key=first&userId=bob')).body.milestones).toEqual([]);
    expect((await app.api.get('/incentives/milestones?key=nope')).body.pagination.totalItems).toBe(0);
    // Without a filter: every reached milestone of the app, as before.
    expect((await app.api.get('/incentives/milestones')).body.pagination.totalItems).toBe(1);
  });

  it('lists the users at a level with level=, by the same sort', async () => {
    const at = async (query: string) => (await app.api.get(`/incentives/balances?${query}`)).body.balances.map((b: { userId: string; level: number }) => [b.userId, b.level]);
    expect(await at('level=1')).toEqual([['ann', 1]]);
    expect(await at('level=2')).toEqual([['bob', 2]]);
    expect(await at('level=0&sort=coins')).toEqual([['cat', 0]]);
    expect(await at('level=7')).toEqual([]);
    expect(await at('sort=xp')).toEqual([
      ['bob', 2],
      ['ann', 1],
      ['cat', 0],
    ]);
    expect(statusAndCode(await app.api.get('/incentives/balances?level=-1'))).toEqual([400, 'VALIDATION_ERROR']);
  });
});
