import { Redis } from 'ioredis';
import { infraUrl, uniqueName } from '@ris/testing';
import { emptyBalance, type BalanceState, type PeriodXp } from '../ledger/balance-fold';
import type { IncentiveModules } from '../incentive-modules';
import { engineOnTestDatabase, type TestEngine } from '../testing/engine-on-test-database';
import { LeaderboardStore } from './leaderboard-store';
import { PERIODS, TIMED_PERIODS, periodField, periodKey } from './period-keys';
import { MAX_XP } from './score-encoding';
import { atTheEdge } from '../testing/at-the-edge';

// Equal XP reached a few milliseconds apart: the earlier user ranks first,
// whatever the user ids, on every board, after a rebuild and in snapshots.
// Against real Redis (and FerretDB/MongoDB for the engine).
jest.setTimeout(60_000);

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ranked = (entries: Array<{ rank: number; userId: string; xp: number }>) => entries.map((e) => [e.rank, e.userId, e.xp]);

describe('leaderboard ties to the millisecond (real Redis)', () => {
  let redis: Redis;
  let store: LeaderboardStore;
  const prefix = `${uniqueName('ties')}:`;
  const appId = uniqueName('app');

  beforeAll(() => {
    redis = new Redis(infraUrl('REDIS_URL'), { maxRetriesPerRequest: 1 });
    store = new LeaderboardStore(redis, prefix);
  });

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  /** XP in every period of `at` (what a balance holds after earning it then). */
  const periodsAt = (xp: number, at: Date): Record<string, PeriodXp> =>
    Object.fromEntries(TIMED_PERIODS.map((p) => [periodField(p, periodKey(p, at)), { xp, at }]));
  const balance = (seq: number, xp: number, at: Date, periods = periodsAt(xp, at)): BalanceState => ({
    ...emptyBalance(),
    seq,
    xp,
    coins: seq,
    xpChangedAt: at,
    periods,
  });

  const now = new Date();
  const later = new Date(now.getTime() + 5);

  it('ranks equal XP reached 5 ms apart by who got there first, in both orders of user ids, on every board', async () => {
    // 'zed' got to 500 first (larger id), 'bob' got to 300 first (smaller id).
    await store.writeUser(appId, 'amy', balance(1, 500, later));
    await store.writeUser(appId, 'zed', balance(1, 500, now));
    await store.writeUser(appId, 'bob', balance(1, 300, now));
    await store.writeUser(appId, 'yan', balance(1, 300, later));
    await store.markBuilt(appId);
    const expected = [
      [1, 'zed', 500],
      [2, 'amy', 500],
      [3, 'bob', 300],
      [4, 'yan', 300],
    ];
    for (const period of PERIODS) {
      expect([period, ranked((await store.top(appId, period, 10, now)) ?? [])]).toEqual([period, expected]);
      // By user id: the same ranks, from the member the users hash names.
      expect([period, ranked((await store.entries(appId, period, ['yan', 'amy', 'nobody', 'zed', 'bob'], now)) ?? [])]).toEqual([
        period,
        [expected[3], expected[1], expected[0], expected[2]],
      ]);
    }
  });

  it('moves a user whose time changes (one member per board) and ignores an older version', async () => {
    const boards = PERIODS.map((p) => store.boardKey(appId, p, periodKey(p, now)));
    const sizes = async () => Promise.all(boards.map((key) => redis.zcard(key)));
    // 'amy' reaches 500 again later (a score set to the same XP): still behind 'zed'.
    await store.writeUser(appId, 'amy', balance(2, 500, new Date(now.getTime() + 10)));
    expect(await sizes()).toEqual([4, 4, 4, 4]);
    expect(ranked((await store.top(appId, 'ALL_TIME', 2, now)) ?? [])).toEqual([
      [1, 'zed', 500],
      [2, 'amy', 500],
    ]);
    // Then passes her.
    await store.writeUser(appId, 'amy', balance(3, 600, new Date(now.getTime() + 20)));
    // A write of an older version arriving late changes nothing.
    await store.writeUser(appId, 'amy', balance(2, 500, new Date(now.getTime() + 10)));
    expect(await sizes()).toEqual([4, 4, 4, 4]);
    for (const period of PERIODS) {
      expect(ranked((await store.top(appId, period, 2, now)) ?? [])).toEqual([
        [1, 'amy', 600],
        [2, 'zed', 500],
      ]);
      expect((await store.entry(appId, period, 'amy', now))?.rank).toBe(1);
    }
  });

  it("keeps a past period's own time: yesterday's board ranks by when each reached yesterday's XP", async () => {
    const yesterday = new Date(now.getTime() - 86_400_000);
    const app = uniqueName('app');
    // Both earned 50 yesterday, 'zoe' 5 ms before 'abe'; 'zoe' earned more today (a later time on the other boards).
    await store.writeUser(app, 'abe', balance(1, 50, new Date(yesterday.getTime() + 5), periodsAt(50, new Date(yesterday.getTime() + 5))));
    await store.writeUser(app, 'zoe', balance(2, 60, now, { ...periodsAt(50, yesterday), ...periodsAt(10, now) }));
    await store.markBuilt(app);
    expect(ranked((await store.top(app, 'DAILY', 10, yesterday)) ?? [])).toEqual([
      [1, 'zoe', 50],
      [2, 'abe', 50],
    ]);
    expect(ranked((await store.entries(app, 'DAILY', ['abe', 'zoe'], yesterday)) ?? [])).toEqual([
      [2, 'abe', 50],
      [1, 'zoe', 50],
    ]);
    expect(ranked((await store.entries(app, 'DAILY', ['abe', 'zoe'], now)) ?? [])).toEqual([[1, 'zoe', 10]]);
    expect(ranked((await store.entries(app, 'ALL_TIME', ['abe', 'zoe'], now)) ?? [])).toEqual([
      [2, 'abe', 50],
      [1, 'zoe', 60],
    ]);
  });
});

describe('leaderboard ties through the engine (real MongoDB and Redis)', () => {
  let test: TestEngine;
  let engine: IncentiveModules;
  const appId = uniqueName('app');

  beforeAll(async () => {
    test = await engineOnTestDatabase('incentive_ties');
    ({ engine } = test);
  }, 60_000);

  afterAll(() => test.close());

  const record = async (userId: string, actionKey: string) => {
    const [outcome] = await engine.recorder.record(appId, [{ userId, actionKey, idempotencyKey: null, metadata: null, source: 'API', sourceEventId: null }]);
    if (outcome instanceof Error) throw outcome;
    return outcome.event;
  };
  const action = (key: string, xp: number) =>
    engine.actions.create(appId, { key, name: key, type: 'STANDARD', coins: 1, xp, tokens: 0, cooldownSeconds: 0, maxRepeats: null, enabled: true, description: null });
  const reachedAt = async (userId: string) => (await engine.ledger.read(appId, userId)).xpChangedAt?.getTime() ?? 0;

  it('ranks events 5 ms apart by who reached the XP first, live, after a rebuild and in snapshots', async () => {
    await action('twenty', 20);
    await action('ten', 10);
    // 'zed' first then 'amy' (the earlier has the larger id), 'bob' first then 'yan' (the smaller).
    await record('zed', 'twenty');
    await pause(5);
    await record('amy', 'twenty');
    await record('bob', 'ten');
    await pause(5);
    await record('yan', 'ten');
    expect((await reachedAt('amy')) - (await reachedAt('zed'))).toBeGreaterThanOrEqual(5);
    expect((await reachedAt('yan')) - (await reachedAt('bob'))).toBeGreaterThanOrEqual(5);

    const expected = [
      [1, 'zed', 20],
      [2, 'amy', 20],
      [3, 'bob', 10],
      [4, 'yan', 10],
    ];
    const everyBoard = async () => {
      for (const period of PERIODS) {
        expect([period, ranked(await engine.leaderboard.top(appId, period, 10))]).toEqual([period, expected]);
        const entries = await engine.leaderboard.entries(appId, period, ['amy', 'yan', 'zed', 'bob']);
        expect([period, ranked(entries as Array<{ rank: number; userId: string; xp: number }>)]).toEqual([period, [expected[1], expected[3], expected[0], expected[2]]]);
      }
    };
    await everyBoard();

    // Rebuilt from MongoDB: the same order (the balances keep the milliseconds).
    await test.redis.del(...(await test.redis.keys(`${test.redisKeyPrefix}lb:${appId}:*`)));
    await engine.leaderboard.refresh(appId);
    await everyBoard();

    // Snapshots are taken from MongoDB, ranked the same way.
    const tomorrow = new Date(Date.now() + 86_400_000);
    expect(await engine.snapshots.takeDue(tomorrow)).toBeGreaterThanOrEqual(2);
    for (const period of ['DAILY', 'ALL_TIME'] as const) {
      const [snapshot] = (await engine.snapshots.list(appId, { page: 1, limit: 1 }, period)).items;
      expect([period, snapshot.entries.map((e) => [e.rank, e.userId, e.xp])]).toEqual([period, expected]);
    }
  });

  it("stops a user's XP at MAX_XP, crediting only what fits, and still breaks ties there to the millisecond", async () => {
    await action('huge', MAX_XP);
    await engine.movements.setScore(appId, { userId: 'zz-max', xp: MAX_XP - 3, coins: null });
    const event = await record('zz-max', 'huge');
    expect(event.result.rewarded).toEqual({ coins: 1, xp: 3, tokens: 0 });
    expect(event.result.balance.xp).toBe(MAX_XP);
    await pause(5);
    await engine.movements.setScore(appId, { userId: 'aa-max', xp: MAX_XP, coins: null });
    // Nothing more fits: the event earns its coins, no XP, and the time 'zz-max' reached MAX_XP stays.
    expect((await record('zz-max', 'huge')).result.rewarded).toEqual({ coins: 1, xp: 0, tokens: 0 });
    expect((await engine.ledger.read(appId, 'zz-max')).xp).toBe(MAX_XP);
    for (const period of PERIODS) {
      expect(ranked((await engine.leaderboard.top(appId, period, 2)))).toEqual([
        [1, 'zz-max', MAX_XP],
        [2, 'aa-max', MAX_XP],
      ]);
    }
    await expect(atTheEdge(engine.movements.setScore(appId, { userId: 'over', xp: MAX_XP + 1, coins: null }))).rejects.toMatchObject({
      rawMessage: expect.stringContaining('xp must be'),
    });
  });
});
