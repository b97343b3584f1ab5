import { Redis } from 'ioredis';
import { Outbox } from '@ris/events';
import { createLogger, type Logger } from '@ris/logging';
import { infraUrl, testDatabase, uniqueName } from '@ris/testing';
import { incentiveModules, type IncentiveModules } from '../incentive-modules';

type TestDatabase = Awaited<ReturnType<typeof testDatabase>>;

export interface TestEngine {
  db: TestDatabase;
  redis: Redis;
  outbox: Outbox;
  logger: Logger;
  engine: IncentiveModules;
  /** The spec's own Redis key prefix: nothing of another spec's board is touched. */
  redisKeyPrefix: string;
  /** Lets the engine's counts land, drops the database, deletes the prefix's Redis keys and disconnects a Redis it made (not one it was given). */
  close(): Promise<void>;
}

/**
 * The engine's modules on a fresh test database (real FerretDB/MongoDB) and
 * the development Redis under a key prefix of the spec's own, with every
 * index built: what an engine spec runs against. A spec that stops and
 * starts its own Redis passes it in.
 */
export async function engineOnTestDatabase(
  name: string,
  options: { redis?: Redis; redisKeyPrefix?: string; claimLeaseMs?: number } = {},
): Promise<TestEngine> {
  const logger = createLogger('incentive-test', 'silent');
  const db = await testDatabase(name);
  const redis = options.redis ?? new Redis(infraUrl('REDIS_URL'), { maxRetriesPerRequest: 1 });
  const redisKeyPrefix = options.redisKeyPrefix ?? `${uniqueName(name)}:`;
  const outbox = new Outbox(db);
  const engine = incentiveModules({ db, redis, redisKeyPrefix, outbox, logger, ...(options.claimLeaseMs ? { claimLeaseMs: options.claimLeaseMs } : {}) });
  await Promise.all(Object.values(db.models).map((m) => m.init()));
  return {
    db,
    redis,
    outbox,
    logger,
    engine,
    redisKeyPrefix,
    async close() {
      // Counts still on their way (spaced a quarter of a second apart) would make the buckets' collection again after the drop.
      await engine.series.flushed();
      if (!options.redis) {
        const keys = await redis.keys(`${redisKeyPrefix}*`);
        if (keys.length) await redis.del(...keys);
        redis.disconnect();
      }
      await db.drop();
    },
  };
}
