import { Redis } from 'ioredis';
import { Code } from '@connectrpc/connect';
import { privateRedisServer, uniqueName } from '@ris/testing';
import type { IncentiveModules } from '../incentive-modules';
import { engineOnTestDatabase, type TestEngine } from '../testing/engine-on-test-database';
import { atTheEdge } from '../testing/at-the-edge';

jest.setTimeout(60_000);

// A private redis-server the test stops and starts: while Redis is away,
// events still succeed and reads answer Unavailable (503), never stale data;
// once it is back (empty), the board catches up from MongoDB by itself.
describe('leaderboard through a Redis outage', () => {
  let test: TestEngine;
  let redisServer: Awaited<ReturnType<typeof privateRedisServer>>;
  let redis: Redis;
  let engine: IncentiveModules;
  const appId = uniqueName('app');

  beforeAll(async () => {
    redisServer = await privateRedisServer();
    await redisServer.start();
    // As the service connects: fail fast rather than queue while Redis is down.
    redis = new Redis(redisServer.url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 500, retryStrategy: () => 100 });
    redis.on('error', () => undefined);
    test = await engineOnTestDatabase('incentive_outage', { redis, redisKeyPrefix: 'outage:' });
    ({ engine } = test);
    engine.leaderboard.start(200);
    await engine.actions.create(appId, { key: 'play', name: 'Play', type: 'STANDARD', coins: 1, xp: 10, tokens: 0, cooldownSeconds: 0, maxRepeats: null, enabled: true, description: null });
  });

  afterAll(async () => {
    await engine.leaderboard.stop();
    redis.disconnect();
    await redisServer.stop();
    await test.close();
  });

  const play = (userId: string) =>
    engine.recorder.record(appId, [{ userId, actionKey: 'play', idempotencyKey: null, metadata: null, source: 'API', sourceEventId: null }]);

  it('keeps recording events, answers 503 meanwhile, and catches up when Redis is back', async () => {
    await play('ann');
    await play('ann');
    await play('ben');
    expect((await engine.leaderboard.top(appId, 'ALL_TIME', 10)).map((e) => [e.userId, e.xp])).toEqual([
      ['ann', 20],
      ['ben', 10],
    ]);

    await redisServer.stop();
    const during = await Promise.all([play('ben'), play('ben'), play('cat')]);
    for (const [outcome] of during) expect(outcome).not.toBeInstanceOf(Error);
    await expect(atTheEdge(engine.leaderboard.top(appId, 'ALL_TIME', 10))).rejects.toMatchObject({ code: Code.Unavailable });
    await expect(atTheEdge(engine.leaderboard.entry(appId, 'DAILY', 'ann'))).rejects.toMatchObject({ code: Code.Unavailable });

    await redisServer.start();
    const deadline = Date.now() + 20_000;
    let board: Array<{ userId: string; xp: number }> | undefined;
    while (Date.now() < deadline) {
      board = await engine.leaderboard.top(appId, 'ALL_TIME', 10).catch(() => undefined);
      if (board) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(board?.map((e) => [e.userId, e.xp])).toEqual([
      ['ben', 30],
      ['ann', 20],
      ['cat', 10],
    ]);
    expect(await engine.leaderboard.entry(appId, 'WEEKLY', 'cat')).toMatchObject({ rank: 3, xp: 10 });
  });
});
