import { Redis } from 'ioredis';
import { ApiError } from '../../http/api-error';
import { infraUrl, uniqueName } from '@ris/testing';
import { LoginThrottle } from './login-throttle';

const refusal = async (work: Promise<unknown>) => {
  try {
    await work;
    return null;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { status: err.status, code: err.code, retryAfter: Number(err.headers?.['Retry-After']) };
  }
};

describe('login throttling in Redis', () => {
  let redis: Redis;
  let prefix: string;

  beforeAll(() => {
    redis = new Redis(infraUrl('REDIS_URL'));
    prefix = `${uniqueName('thr')}:`;
  });

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('refuses an account past its failures, from any address, with Retry-After until its window frees', async () => {
    const throttle = new LoginThrottle(redis, prefix, { perAccount: 3, perAddress: 100, windowMs: 60_000 });
    for (let i = 0; i < 3; i += 1) expect(await refusal(throttle.take('Ann@Example.com', `10.0.0.${i}`))).toBeNull();
    const refused = await refusal(throttle.take('ann@example.com', '10.0.0.9'));
    expect(refused).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect(refused!.retryAfter).toBeGreaterThan(55);
    expect(refused!.retryAfter).toBeLessThanOrEqual(60);
    expect(await refusal(throttle.take('bob@example.com', '10.0.0.9'))).toBeNull();
  });

  it('refuses an address past its failures, for any account', async () => {
    const throttle = new LoginThrottle(redis, prefix, { perAccount: 100, perAddress: 3, windowMs: 2_000 });
    for (let i = 0; i < 3; i += 1) expect(await refusal(throttle.take(`user${i}@example.com`, '10.1.0.1'))).toBeNull();
    expect(await refusal(throttle.take('new@example.com', '10.1.0.1'))).toMatchObject({ status: 429, retryAfter: 2 });
    expect(await refusal(throttle.take('new@example.com', '10.1.0.2'))).toBeNull();
    // The window frees.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect(await refusal(throttle.take('new@example.com', '10.1.0.1'))).toBeNull();
  });

  it('counts only failures: an attempt given back (a right password) does not use up the limit', async () => {
    const throttle = new LoginThrottle(redis, prefix, { perAccount: 2, perAddress: 100, windowMs: 60_000 });
    for (let i = 0; i < 10; i += 1) {
      expect(await refusal(throttle.take('carol@example.com', '10.2.0.1'))).toBeNull();
      await throttle.giveBack('carol@example.com', '10.2.0.1');
    }
  });

  it('lets no more than the limit through when guesses race each other', async () => {
    const throttle = new LoginThrottle(redis, prefix, { perAccount: 5, perAddress: 100, windowMs: 60_000 });
    const outcomes = await Promise.all(Array.from({ length: 30 }, () => refusal(throttle.take('dave@example.com', '10.3.0.1'))));
    expect(outcomes.filter((o) => o === null)).toHaveLength(5);
  });
});
