import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import mongoose from 'mongoose';
import { connect, type NatsConnection } from 'nats';
import { readInfraEnv } from './infra-env';
import { appDatabase, removeRunData, type RunData } from './run-data';

// Against the real infrastructure: what a test run or benchmark stored goes,
// what another run stored stays.
describe('removeRunData', () => {
  const infra = readInfraEnv(join(__dirname, '..', '..', '..'));
  const runData = (): RunData => {
    const run = `rd${randomBytes(4).toString('hex')}`;
    return { infra, dbPrefix: `${run}_`, eventsStream: `${run.toUpperCase()}_DOMAIN`, redisKeyPrefix: `${run}:` };
  };
  let conn: mongoose.Connection;
  let redis: Redis;
  let nc: NatsConnection;

  beforeAll(async () => {
    conn = await mongoose.createConnection(infra.MONGODB_URL).asPromise();
    redis = new Redis(infra.REDIS_URL);
    nc = await connect({ servers: infra.NATS_URL });
  });

  afterAll(async () => {
    await conn.close();
    redis.disconnect();
    await nc.close();
  });

  async function store(data: RunData): Promise<void> {
    for (const app of ['gateway', 'webhook-service'] as const) {
      await conn.useDb(appDatabase(data.dbPrefix, app)).collection<{ _id: string }>('things').insertOne({ _id: 'x' });
    }
    await redis.set(`${data.redisKeyPrefix}a`, '1');
    await redis.set(`${data.redisKeyPrefix}b:c`, '2');
    const jsm = await nc.jetstreamManager();
    await jsm.streams.add({ name: data.eventsStream, subjects: [`${data.dbPrefix}domain.>`] });
  }

  async function stored(data: RunData) {
    const jsm = await nc.jetstreamManager();
    const collections = await Promise.all(
      (['gateway', 'webhook-service'] as const).map(async (app) => (await conn.useDb(appDatabase(data.dbPrefix, app)).db!.listCollections().toArray()).length),
    );
    return {
      collections: collections.reduce((a, b) => a + b, 0),
      keys: (await redis.keys(`${data.redisKeyPrefix}*`)).length,
      stream: await jsm.streams.info(data.eventsStream).then(() => true, () => false),
    };
  }

  it("drops a run's databases, deletes its stream and its Redis keys, and leaves another run's", async () => {
    const [mine, other] = [runData(), runData()];
    await store(mine);
    await store(other);
    expect(await stored(mine)).toEqual({ collections: 2, keys: 2, stream: true });

    await removeRunData(mine);

    expect(await stored(mine)).toEqual({ collections: 0, keys: 0, stream: false });
    expect(await stored(other)).toEqual({ collections: 2, keys: 2, stream: true });
    await removeRunData(other);
    expect(await stored(other)).toEqual({ collections: 0, keys: 0, stream: false });
  });

  it("also drops the run's other databases it is told of (a benchmark's bare baseline)", async () => {
    const data = runData();
    const baseline = conn.useDb(`${data.dbPrefix}baseline`);
    await baseline.collection<{ _id: string }>('writes').insertOne({ _id: 'x' });
    await removeRunData(data, ['baseline']);
    expect(await baseline.db!.listCollections().toArray()).toEqual([]);
  });

  it('names databases as the stack does: the app without -service, dashes as underscores', () => {
    expect(appDatabase('ris_', 'catalog-marketplace-service')).toBe('ris_catalog_marketplace');
    expect(appDatabase('t1_', 'gateway')).toBe('t1_gateway');
  });
});
