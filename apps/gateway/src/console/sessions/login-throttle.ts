import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { ApiError } from '../../http/api-error';

export interface LoginThrottleLimits {
  /** Failed sign-ins per account (lower-cased email) within the window. */
  perAccount: number;
  /** Failed sign-ins per client address within the window. */
  perAddress: number;
  windowMs: number;
}

// Takes one attempt from both counters unless either is spent, in one step
// (concurrent guesses cannot pass the limit together). A counter's window
// starts at its first attempt. Answers {1} or {0, ms until the spent ones free}.
const TAKE = `
local wait = 0
local limits = { tonumber(ARGV[1]), tonumber(ARGV[2]) }
for i = 1, 2 do
  local used = tonumber(redis.call('GET', KEYS[i]) or '0')
  if used >= limits[i] then wait = math.max(wait, redis.call('PTTL', KEYS[i])) end
end
if wait > 0 then return { 0, wait } end
for i = 1, 2 do
  redis.call('INCR', KEYS[i])
  if redis.call('PTTL', KEYS[i]) < 0 then redis.call('PEXPIRE', KEYS[i], ARGV[3]) end
end
return { 1, 0 }
`;

// A sign-in that succeeded gives its attempt back: only failures count.
const GIVE_BACK = `
for i = 1, 2 do
  if tonumber(redis.call('GET', KEYS[i]) or '0') > 0 then redis.call('DECR', KEYS[i]) end
end
return 1
`;

type ThrottleCommands = Redis & {
  loginAttemptTake(account: string, address: string, perAccount: string, perAddress: string, windowMs: string): Promise<[number, number]>;
  loginAttemptGiveBack(account: string, address: string): Promise<number>;
};

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * Login throttling: failed sign-ins are counted in Redis per account and
 * per client address; past either limit every sign-in of that account or
 * address, with a right password too, is 429 RATE_LIMITED with
 * Retry-After until the window frees. Each attempt is taken before the
 * password is checked and given back when it was right, so attempts
 * racing each other cannot slip past the limit.
 */
export class LoginThrottle {
  private readonly redis: ThrottleCommands;

  constructor(
    redis: Redis,
    private readonly keyPrefix: string,
    private readonly limits: LoginThrottleLimits,
  ) {
    if (!('loginAttemptTake' in redis)) {
      redis.defineCommand('loginAttemptTake', { numberOfKeys: 2, lua: TAKE });
      redis.defineCommand('loginAttemptGiveBack', { numberOfKeys: 2, lua: GIVE_BACK });
    }
    this.redis = redis as ThrottleCommands;
  }

  private keys(email: string, address: string): [string, string] {
    // The email is hashed: Redis need not hold who tried to sign in.
    return [`${this.keyPrefix}login-failures:account:${sha256(email.toLowerCase())}`, `${this.keyPrefix}login-failures:address:${address}`];
  }

  /** Takes an attempt, or throws 429 with Retry-After. */
  async take(email: string, address: string): Promise<void> {
    const [account, addr] = this.keys(email, address);
    const [allowed, waitMs] = await this.redis.loginAttemptTake(
      account,
      addr,
      String(this.limits.perAccount),
      String(this.limits.perAddress),
      String(this.limits.windowMs),
    );
    if (allowed === 1) return;
    const retryAfter = String(Math.max(1, Math.ceil(waitMs / 1000)));
    throw new ApiError(429, 'RATE_LIMITED', `Too many failed sign-ins; retry after ${retryAfter} s.`, { retryAfterMs: waitMs }, { 'Retry-After': retryAfter });
  }

  /** The attempt was a success: it does not count. */
  async giveBack(email: string, address: string): Promise<void> {
    const [account, addr] = this.keys(email, address);
    await this.redis.loginAttemptGiveBack(account, addr);
  }
}
