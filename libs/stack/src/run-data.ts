import { Redis } from 'ioredis';
import mongoose from 'mongoose';
import { connect } from 'nats';
import { BACKEND_SERVICES, type AppName } from './apps';
import type { StackOptions } from './process-stack';

/** The database an app of a stack uses: <dbPrefix><app without -service, _ for ->, e.g. ris_catalog_marketplace. */
export const appDatabase = (dbPrefix: string, app: AppName): string => `${dbPrefix}${app.replace(/-service$/, '').replace(/-/g, '_')}`;

export type RunData = Pick<StackOptions, 'infra' | 'dbPrefix' | 'eventsStream' | 'redisKeyPrefix'>;

/**
 * Deletes what a stack of a run's own (a test run, a benchmark) left on
 * shared infrastructure: its apps' databases (and `<dbPrefix><name>` for
 * each of `otherDatabases`, such as a benchmark's bare baseline), its
 * stream and its Redis keys. Left behind, every run's databases add tables that PostgreSQL's
 * autovacuum keeps visiting and that FerretDB's listDatabases sizes one by
 * one (about 15 s with 560 databases left by earlier runs). The databases
 * are dropped by name, not found by listing them, for that reason. Never
 * for `npm start`'s stack: its data is the operator's.
 */
export async function removeRunData({ infra, dbPrefix, eventsStream, redisKeyPrefix }: RunData, otherDatabases: readonly string[] = []): Promise<void> {
  const nc = await connect({ servers: infra.NATS_URL });
  try {
    await (await nc.jetstreamManager()).streams.delete(eventsStream).catch(() => undefined);
  } finally {
    await nc.close();
  }
  const conn = await mongoose.createConnection(infra.MONGODB_URL).asPromise();
  try {
    const names = [...(['gateway', ...BACKEND_SERVICES] as const).map((app) => appDatabase(dbPrefix, app)), ...otherDatabases.map((name) => `${dbPrefix}${name}`)];
    for (const name of names) await conn.useDb(name).dropDatabase();
  } finally {
    await conn.close();
  }
  const redis = new Redis(infra.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 2 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${redisKeyPrefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
