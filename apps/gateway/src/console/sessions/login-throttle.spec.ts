import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { ApiError } from '../../http/api-error';
import { infraUrl, uniqueName } from '@ris/testing';
import { DEFAULT_LOGIN_LIMITS, LoginThrottle, type LoginThrottleLimits, type SignInSource } from './login-throttle';

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

  const limits = (overrides: Partial<LoginThrottleLimits>): LoginThrottleLimits => ({ ...DEFAULT_LOGIN_LIMITS, ...overrides });
  const from = (address: string, device: string | null = null): SignInSource => ({ address, device });
  /** Fails `n` sign-ins in a row (each taken and not given back), each allowed. */
  const fail = async (throttle: LoginThrottle, email: string, source: SignInSource, n: number) => {
    for (let i = 0; i < n; i += 1) expect(await refusal(throttle.take(email, source))).toBeNull();
  };
  const waitOf = async (throttle: LoginThrottle, email: string, source: SignInSource) => {
    try {
      await throttle.take(email, source);
      return 0;
    } catch (err) {
      return ((err as ApiError).details as { retryAfterMs: number }).retryAfterMs;
    }
  };

  it('slows an account from one address after its free failures: 1 s, 2 s, 4 s… after the last one, never past the ceiling', async () => {
    const throttle = new LoginThrottle(redis, prefix, limits({ freePerAccountAddress: 3, maxDelayMs: 8_000 }));
    await fail(throttle, 'Ann@Example.com', from('10.0.0.1'), 3);
    const refused = await refusal(throttle.take('ann@example.com', from('10.0.0.1')));
    expect(refused).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfter: 1 });
    // The delays as the counter grows (written straight, as failures past their waits would leave it).
    const key = `${prefix}login-failures:${createHash('sha256').update('ann@example.com').digest('hex')}:address:10.0.0.1`;
    const delays: number[] = [];
    for (const failures of [4, 5, 6, 7, 20]) {
      await redis.hset(key, 'f', failures, 't', Date.now());
      delays.push(Math.round((await waitOf(throttle, 'ann@example.com', from('10.0.0.1'))) / 1000));
    }
    expect(delays).toEqual([2, 4, 8, 8, 8]);
  });

  it('does not let one address keep the owner out: another address, and a known device, sign in', async () => {
    const throttle = new LoginThrottle(redis, prefix, limits({}));
    const attacker = from('203.0.113.5');
    // 100 tries from one address: the first 5 are counted, the rest wait.
    const tries = await Promise.all(Array.from({ length: 100 }, () => refusal(throttle.take('owner@example.com', attacker))));
    expect(tries.filter((t) => t === null)).toHaveLength(5);
    expect(await refusal(throttle.take('owner@example.com', from('198.51.100.7')))).toBeNull();
    expect(await refusal(throttle.take('owner@example.com', from('203.0.113.5', 'owners-laptop')))).toBeNull();
  });

  it('slows an address spraying many accounts, for every account', async () => {
    const throttle = new LoginThrottle(redis, prefix, limits({ freePerAddress: 4 }));
    for (let i = 0; i < 4; i += 1) await fail(throttle, `user${i}@example.com`, from('10.1.0.1'), 1);
    expect(await refusal(throttle.take('new@example.com', from('10.1.0.1')))).toMatchObject({ status: 429, retryAfter: 1 });
    expect(await refusal(throttle.take('new@example.com', from('10.1.0.2')))).toBeNull();
  });

  it("slows an account tried from many addresses for browsers it does not know, never for a known one", async () => {
    const throttle = new LoginThrottle(redis, prefix, limits({ freePerAccount: 10 }));
    for (let i = 0; i < 10; i += 1) await fail(throttle, 'bob@example.com', from(`10.4.0.${i}`), 1);
    expect(await refusal(throttle.take('bob@example.com', from('10.4.1.1')))).toMatchObject({ status: 429 });
    expect(await refusal(throttle.take('bob@example.com', from('10.4.1.1', 'bobs-phone')))).toBeNull();
  });

  it('lets the next try through once the wait is over', async () => {
    const throttle = new LoginThrottle(redis, prefix, limits({ freePerAccountAddress: 1, baseDelayMs: 200 }));
    await fail(throttle, 'eve@example.com', from('10.5.0.1'), 1);
    expect(await refusal(throttle.take('eve@example.com', from('10.5.0.1')))).toMatchObject({ status: 429 });
    const deadline = Date.now() + 5_000;
    while ((await waitOf(throttle, 'eve@example.com', from('10.5.0.1'))) > 0) expect(Date.now()).toBeLessThan(deadline);
  });

  it('counts only failures: an attempt given back (a right password) clears the account-and-address counter', async () => {
    const throttle = new LoginThrottle(redis, prefix, limits({ freePerAccountAddress: 2 }));
    for (let i = 0; i < 10; i += 1) {
      await fail(throttle, 'carol@example.com', from('10.2.0.1'), 1);
      expect(await refusal(throttle.take('carol@example.com', from('10.2.0.1')))).toBeNull();
      await throttle.giveBack('carol@example.com', from('10.2.0.1'));
    }
  });

  it('lets no more than the free failures through when guesses race each other', async () => {
    const throttle = new LoginThrottle(redis, prefix, limits({ freePerAccountAddress: 5 }));
    const outcomes = await Promise.all(Array.from({ length: 30 }, () => refusal(throttle.take('dave@example.com', from('10.3.0.1')))));
    expect(outcomes.filter((o) => o === null)).toHaveLength(5);
  });
});
