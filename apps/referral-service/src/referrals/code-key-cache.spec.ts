import { Redis } from 'ioredis';
import { Outbox } from '@ris/events';
import { createLogger } from '@ris/logging';
import { freeTcpPort, infraUrl, testDatabase, uniqueName } from '@ris/testing';
import { CodeKeyCache } from './code-key-cache';
import { referralCodeKeyModel } from './referral-key.model';
import { ReferralKeyRepository } from './referral-key.repository';
import { ReferralLookup, codeKeyId } from './referral-lookup';
import { ReferralRepository } from './referral.repository';

// Two lookups on one database stand for two replicas of the service: what
// one writes at creation, the other finds in Redis (real Redis, real FerretDB).
describe('code keys shared through Redis', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let redis: Redis;
  const prefix = `${uniqueName('ckc')}:`;
  const logger = createLogger('test', 'silent');
  const appId = 'app_ckc';

  const replica = (cache?: CodeKeyCache) =>
    new ReferralLookup(new ReferralRepository(db, new Outbox(db)), ReferralKeyRepository.byCode(db), ReferralKeyRepository.byOwner(db), cache);
  const ref = (code: string) => ({ _id: `ref_${code}`, code, campaignId: 'cmp_1', referrerId: `owner-${code}` });

  beforeAll(async () => {
    db = await testDatabase('ckc');
    // The service's settings but a longer command timeout: these tests are not about a slow Redis, and a busy machine is one.
    redis = new Redis(infraUrl('REDIS_URL'), { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 5_000, enableAutoPipelining: true });
    await new Promise((resolve) => redis.once('ready', resolve));
  });

  afterAll(async () => {
    try {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
    } finally {
      redis.disconnect();
      await db.drop();
    }
  });

  it('finds a code created on another replica in Redis, without the database', async () => {
    const creator = replica(new CodeKeyCache(redis, prefix, logger));
    await creator.addKeys(appId, ref('SHARED01'));
    expect(await redis.ttl(`${prefix}codekey:${codeKeyId(appId, 'SHARED01')}`)).toBeGreaterThan(86_400);
    // Gone from MongoDB (and there is no referral document to fall back on): only Redis can answer.
    await referralCodeKeyModel(db).deleteOne({ appId, _id: codeKeyId(appId, 'SHARED01') });
    const other = replica(new CodeKeyCache(redis, prefix, logger));
    expect(await other.codeKey(appId, 'shared01')).toEqual({
      _id: codeKeyId(appId, 'SHARED01'),
      appId,
      referralId: 'ref_SHARED01',
      campaignId: 'cmp_1',
      referrerId: 'owner-SHARED01',
      code: 'SHARED01',
    });
    // Another app asking for the same code reads its own key, and has none.
    expect(await other.codeKey('app_other', 'SHARED01')).toBeNull();
    // Without the cache, the same lookup finds nothing: the answer above came from Redis.
    expect(await replica().codeKey(appId, 'SHARED01')).toBeNull();
  });

  it('puts a key read from the database into Redis, for the next replica', async () => {
    await replica().addKeys(appId, ref('LATECOME'));
    expect(await redis.exists(`${prefix}codekey:${codeKeyId(appId, 'LATECOME')}`)).toBe(0);
    expect(await replica(new CodeKeyCache(redis, prefix, logger)).codeKey(appId, 'LATECOME')).toMatchObject({ referralId: 'ref_LATECOME' });
    expect(JSON.parse((await redis.get(`${prefix}codekey:${codeKeyId(appId, 'LATECOME')}`)) as string)).toEqual({
      appId,
      referralId: 'ref_LATECOME',
      campaignId: 'cmp_1',
      referrerId: 'owner-LATECOME',
      code: 'LATECOME',
    });
  });

  it('keeps working from the database while Redis is unreachable', async () => {
    const down = new Redis(`redis://127.0.0.1:${await freeTcpPort()}`, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: 250,
      lazyConnect: true,
    });
    down.on('error', () => undefined);
    const lookup = replica(new CodeKeyCache(down, prefix, logger));
    await lookup.addKeys(appId, ref('NOREDIS1'));
    expect(await lookup.codeKey(appId, 'NOREDIS1')).toMatchObject({ referralId: 'ref_NOREDIS1' });
    expect(await replica(new CodeKeyCache(down, prefix, logger)).codeKey(appId, 'UNKNOWN1')).toBeNull();
    down.disconnect();
  });
});
