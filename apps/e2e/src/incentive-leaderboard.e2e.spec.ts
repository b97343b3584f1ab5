import { Redis } from 'ioredis';
import { ApiClient, createTestApp, e2eStack, type TestApp } from '@ris/testing';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('incentive leaderboard', () => {
  let app: TestApp;
  let other: TestApp;
  let redis: Redis;

  /** What a Redis flush does to this app: every key of its boards is gone. */
  async function flushBoards(appId: string): Promise<number> {
    const keys = await redis.keys(`${e2eStack().redisKeyPrefix}lb:${appId}:*`);
    if (keys.length) await redis.del(...keys);
    return keys.length;
  }

  beforeAll(async () => {
    redis = new Redis(e2eStack().redisUrl);
    [app, other] = await Promise.all([createTestApp('leaderboard'), createTestApp('leaderboard other')]);
    await app.api.post('/incentives/actions', { key: 'ten', name: 'Ten', type: 'STANDARD', xp: 10, coins: 1 });
    await app.api.post('/incentives/actions', { key: 'twenty', name: 'Twenty', type: 'STANDARD', xp: 20, coins: 2 });
    const post = (userId: string, actionKey: string) => app.api.post('/incentives/events', { userId, actionKey });
    await post('early', 'twenty');
    // Ties are broken to the millisecond: reach the same XP a few ms later.
    await pause(5);
    await post('late', 'ten');
    await post('late', 'ten');
    await post('top', 'twenty');
    await post('top', 'ten');
  });

  afterAll(() => redis.disconnect());

  const expected = [
    { rank: 1, userId: 'top', xp: 30, coins: 3 },
    { rank: 2, userId: 'early', xp: 20, coins: 2 },
    { rank: 3, userId: 'late', xp: 20, coins: 2 },
  ];

  it('ranks by XP, equal XP going to whoever reached it first, as a JSON array', async () => {
    const res = await app.api.get('/incentives/leaderboard');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(expected);
    expect((await app.api.get('/incentives/leaderboard?limit=2')).body).toEqual(expected.slice(0, 2));
    for (const period of ['ALL_TIME', 'DAILY', 'WEEKLY', 'MONTHLY']) {
      expect([period, (await app.api.get(`/incentives/leaderboard?period=${period}&limit=100`)).body]).toEqual([period, expected]);
    }
  });

  it('ranks equal XP reached 5 ms apart by who got there first, whatever the user ids, on every board', async () => {
    const ties = await createTestApp('leaderboard ties');
    await ties.api.post('/incentives/actions', { key: 'ten', name: 'Ten', type: 'STANDARD', xp: 10 });
    await ties.api.post('/incentives/actions', { key: 'twenty', name: 'Twenty', type: 'STANDARD', xp: 20 });
    const post = async (userId: string, actionKey: string) => expect((await ties.api.post('/incentives/events', { userId, actionKey })).status).toBe(201);
    // The earlier of each pair has the larger id, then the smaller one.
    await post('zed', 'twenty');
    await pause(5);
    await post('amy', 'twenty');
    await post('bob', 'ten');
    await pause(5);
    await post('yan', 'ten');
    const expectedTies = ['zed', 'amy', 'bob', 'yan'].map((userId, i) => ({ rank: i + 1, userId, xp: i < 2 ? 20 : 10, coins: 0 }));
    for (const period of ['ALL_TIME', 'DAILY', 'WEEKLY', 'MONTHLY']) {
      expect([period, (await ties.api.get(`/incentives/leaderboard?period=${period}`)).body]).toEqual([period, expectedTies]);
      const entries = await Promise.all(['yan', 'amy'].map((userId) => ties.api.get(`/incentives/leaderboard/${userId}?period=${period}`)));
      expect([period, entries.map((e) => e.body)]).toEqual([period, [expectedTies[3], expectedTies[1]]]);
    }
  });

  it('refuses XP past 10^9 per request wherever XP enters, naming the field, as the OpenAPI document says', async () => {
    // (A user's total XP stops at 2^53 − 1, the most the board ranks exactly: see leaderboard-ties.spec.ts.)
    const bound = await createTestApp('leaderboard bound');
    const tooMuch = 1e9 + 1;
    const refusals: Array<[string, Record<string, unknown>, string[]]> = [
      ['/incentives/leaderboard', { userId: 'greedy', xp: tooMuch }, ['body.xp']],
      ['/incentives/actions', { key: 'greedy', name: 'Greedy', type: 'STANDARD', xp: tooMuch }, ['body.xp']],
      ['/incentives/levels', { level: 90, name: 'Greedy', xpThreshold: tooMuch }, ['body.xpThreshold']],
      ['/incentives/milestones/definitions', { key: 'greedy', name: 'Greedy', metric: 'XP', threshold: tooMuch, rewards: { xp: tooMuch } }, ['body.threshold', 'body.rewards.xp']],
    ];
    for (const [path, body, fields] of refusals) {
      const res = await bound.api.post(path, body);
      expect([path, res.status, res.body.error.code]).toEqual([path, 400, 'VALIDATION_ERROR']);
      expect([path, res.body.error.details.issues]).toEqual([path, fields.map((field) => ({ field, message: 'must be at most 1000000000' }))]);
    }
    // The largest is accepted, exact.
    const max = await bound.api.post('/incentives/leaderboard', { userId: 'maxed', xp: 1e9 });
    expect([max.status, max.body]).toEqual([200, { rank: 1, userId: 'maxed', xp: 1e9, coins: 0 }]);
    const doc = (await new ApiClient(e2eStack().gatewayUrl).get('/api/v1/openapi.json')).body;
    expect(doc.components.schemas.RecordScoreRequest.properties.xp).toMatchObject({ type: 'integer', minimum: 0, maximum: 1e9 });
  });

  it("returns one user's entry, with the rank even outside the top", async () => {
    const res = await app.api.get('/incentives/leaderboard/late?period=WEEKLY');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ rank: 3, userId: 'late', xp: 20, coins: 2 });
    const missing = await app.api.get('/incentives/leaderboard/nobody');
    expect([missing.status, missing.body.error.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('answers reads that arrive together (one call per board) each with its own answer', async () => {
    const [one, three, daily, early, late, nobody, otherEntry, otherTop] = await Promise.all([
      app.api.get('/incentives/leaderboard?limit=1'),
      app.api.get('/incentives/leaderboard?limit=3'),
      app.api.get('/incentives/leaderboard?period=DAILY&limit=2'),
      app.api.get('/incentives/leaderboard/early'),
      app.api.get('/incentives/leaderboard/late?period=WEEKLY'),
      app.api.get('/incentives/leaderboard/nobody'),
      other.api.get('/incentives/leaderboard/top'),
      other.api.get('/incentives/leaderboard'),
    ]);
    expect(one.body).toEqual(expected.slice(0, 1));
    expect(three.body).toEqual(expected);
    expect(daily.body).toEqual(expected.slice(0, 2));
    expect(early.body).toEqual(expected[1]);
    expect(late.body).toEqual(expected[2]);
    expect([nobody.status, nobody.body.error.code, nobody.body.error.details]).toEqual([404, 'NOT_FOUND', { userId: 'nobody', period: 'ALL_TIME' }]);
    expect(otherEntry.status).toBe(404);
    expect(otherTop.body).toEqual([]);
  });

  it('shows an acknowledged write to every read sent after it, while reads of the board keep arriving', async () => {
    const fresh = await createTestApp('leaderboard fresh');
    await fresh.api.post('/incentives/actions', { key: 'ten', name: 'Ten', type: 'STANDARD', xp: 10 });
    await fresh.api.post('/incentives/events', { userId: 'climber', actionKey: 'ten' });
    // Readers that keep calls of this board in flight (a read joining one of
    // those, instead of a call not sent yet, would miss the write before it).
    let reading = true;
    const readers = ['/incentives/leaderboard?limit=100', '/incentives/leaderboard/climber'].map(async (path) => {
      while (reading) {
        await fresh.api.get(path);
        await pause(10);
      }
    });
    try {
      for (let round = 2; round <= 6; round += 1) {
        await fresh.api.post('/incentives/events', { userId: 'climber', actionKey: 'ten' });
        const [top, entry] = await Promise.all([fresh.api.get('/incentives/leaderboard?limit=100'), fresh.api.get('/incentives/leaderboard/climber')]);
        expect(top.body).toEqual([{ rank: 1, userId: 'climber', xp: 10 * round, coins: 0 }]);
        expect(entry.body).toEqual({ rank: 1, userId: 'climber', xp: 10 * round, coins: 0 });
      }
    } finally {
      reading = false;
      await Promise.all(readers);
    }
  });

  it('refuses bad limits and periods', async () => {
    for (const query of ['limit=0', 'limit=101', 'limit=ten', 'period=YEARLY']) {
      const res = await app.api.get(`/incentives/leaderboard?${query}`);
      expect([query, res.status, res.body.error.code]).toEqual([query, 400, 'VALIDATION_ERROR']);
    }
    expect((await app.api.get('/incentives/leaderboard/top?period=HOURLY')).status).toBe(400);
  });

  it('records an externally computed score through the ledger', async () => {
    const res = await app.api.post('/incentives/leaderboard', { userId: 'imported', xp: 25, coins: 7 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ rank: 2, userId: 'imported', xp: 25, coins: 7 });
    expect((await app.api.get('/incentives/balances/imported')).body.balance).toMatchObject({ xp: 25, coins: 7 });
    const tx = (await app.api.get('/incentives/balances/imported/transactions')).body.transactions;
    expect(tx).toEqual([expect.objectContaining({ reason: 'SCORE_SET', xp: 25, coins: 7 })]);
    // Lowering a score moves the user down.
    const lowered = await app.api.post('/incentives/leaderboard', { userId: 'imported', xp: 5 });
    expect(lowered.body).toEqual({ rank: 4, userId: 'imported', xp: 5, coins: 7 });
    for (const bad of [{ xp: 5 }, { userId: 'x', xp: -1 }, { userId: 'x', xp: 1.5 }, { userId: 'x' }, { userId: 'x', xp: 1, coins: -3 }]) {
      expect((await app.api.post('/incentives/leaderboard', bad)).status).toBe(400);
    }
    await app.api.post('/incentives/leaderboard', { userId: 'imported', xp: 0, coins: 0 });
  });

  it('gives the same board after Redis loses it, on the next read and on refresh', async () => {
    const before = (await app.api.get('/incentives/leaderboard?limit=100')).body;
    const entry = (await app.api.get('/incentives/leaderboard/late')).body;
    expect(await flushBoards(app.appId)).toBeGreaterThan(0);
    // The next read rebuilds from MongoDB.
    expect((await app.api.get('/incentives/leaderboard?limit=100')).body).toEqual(before);
    expect((await app.api.get('/incentives/leaderboard/late')).body).toEqual(entry);

    await flushBoards(app.appId);
    const refreshed = await app.api.post('/incentives/leaderboard/refresh');
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toEqual({ refreshed: true, users: 4, durationMs: expect.any(Number) });
    expect((await app.api.get('/incentives/leaderboard?limit=100')).body).toEqual(before);
    // Everyone earned (or was set) XP today: the day's board holds them all.
    expect((await app.api.get('/incentives/leaderboard?period=DAILY&limit=100')).body).toEqual(before);
    // A refresh on a healthy board changes nothing either.
    await app.api.post('/incentives/leaderboard/refresh');
    expect((await app.api.get('/incentives/leaderboard?limit=100')).body).toEqual(before);
  });

  it('keeps updating after a rebuild, in the same flow as the XP change', async () => {
    await app.api.post('/incentives/events', { userId: 'late', actionKey: 'twenty' });
    expect((await app.api.get('/incentives/leaderboard?limit=1')).body).toEqual([{ rank: 1, userId: 'late', xp: 40, coins: 4 }]);
  });

  it('lists snapshots of ended periods', async () => {
    const res = await app.api.get('/incentives/leaderboard/snapshots?period=DAILY');
    expect(res.status).toBe(200);
    // This app is younger than any period end; snapshot taking itself is covered by the service's tests.
    expect(res.body).toEqual({ snapshots: [], pagination: { page: 1, limit: 25, totalItems: 0, totalPages: 0 } });
    expect((await app.api.get('/incentives/leaderboard/snapshots?period=HOURLY')).status).toBe(400);
  });

  it("keeps apps apart: another app's board is its own", async () => {
    expect((await other.api.get('/incentives/leaderboard')).body).toEqual([]);
    expect((await other.api.get('/incentives/leaderboard/top')).status).toBe(404);
    expect((await other.api.post('/incentives/leaderboard/refresh')).body).toMatchObject({ refreshed: true, users: 0 });
  });

  it('needs an API key', async () => {
    const anonymous = new ApiClient(`${e2eStack().gatewayUrl}/api/v1`);
    expect((await anonymous.get('/incentives/leaderboard')).status).toBe(401);
  });
});
