import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { ApiError } from '../../http/api-error';

export interface LoginThrottleLimits {
  /** Failed sign-ins of one account from one address (or one known device) before each further try waits. */
  freePerAccountAddress: number;
  /** Failed sign-ins from one address, whatever the accounts, before each further try from it waits. */
  freePerAddress: number;
  /** Failed sign-ins of one account from anywhere before each further try from a device it does not know waits. */
  freePerAccount: number;
  /** The first wait; each further failure doubles it. */
  baseDelayMs: number;
  /** The ceiling: no wait is ever longer. */
  maxDelayMs: number;
  /** Failures of a counter are forgotten this long after its last one. */
  forgetAfterMs: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginThrottleLimits = {
  freePerAccountAddress: 5,
  freePerAddress: 20,
  freePerAccount: 50,
  baseDelayMs: 1_000,
  maxDelayMs: 15 * 60_000,
  forgetAfterMs: 24 * 60 * 60_000,
};

/** Where a sign-in comes from: its client address, and the known-device id its cookie proves, if any. */
export interface SignInSource {
  address: string;
  device: string | null;
}

// Each counter is a hash {f: failures, t: ms of the last one}. A counter
// past its free failures makes the next try wait base * 2^(failures - free)
// (at most the ceiling) after its last failure. Takes one attempt from
// every counter unless one makes it wait, in one step, so concurrent
// guesses cannot pass together: an attempt counts as a failure until a
// right password gives it back. Answers {1, 0} or {0, ms to wait}.
// ARGV: base, ceiling, forget, then one free count per key.
const TAKE = `
local now = redis.call('TIME')
local nowMs = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
local base, ceiling, forget = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local wait = 0
for i = 1, #KEYS do
  local f = tonumber(redis.call('HGET', KEYS[i], 'f') or '0')
  local free = tonumber(ARGV[3 + i])
  if f >= free then
    local delay = math.min(base * 2 ^ (f - free), ceiling)
    local last = tonumber(redis.call('HGET', KEYS[i], 't') or '0')
    wait = math.max(wait, last + delay - nowMs)
  end
end
if wait > 0 then return { 0, math.ceil(wait) } end
for i = 1, #KEYS do
  redis.call('HINCRBY', KEYS[i], 'f', 1)
  redis.call('HSET', KEYS[i], 't', nowMs)
  redis.call('PEXPIRE', KEYS[i], forget)
end
return { 1, 0 }
`;

// A right password: the account's counter for this address or device
// starts afresh; the wider counters only get this attempt back.
const GIVE_BACK = `
redis.call('DEL', KEYS[1])
for i = 2, #KEYS do
  if tonumber(redis.call('HGET', KEYS[i], 'f') or '0') > 0 then redis.call('HINCRBY', KEYS[i], 'f', -1) end
end
return 1
`;

type ThrottleCommands = Redis & {
  loginAttemptTake(numberOfKeys: number, ...args: string[]): Promise<[number, number]>;
  loginAttemptGiveBack(numberOfKeys: number, ...keys: string[]): Promise<number>;
};

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * Sign-in throttling that slows guessing without letting strangers lock
 * the owner out (OWASP's authentication guidance: per account and source,
 * progressive delays, and failures of others never deny the owner alone).
 * Failures are counted in Redis, shared by every gateway replica:
 * - per account and address: after 5, each further try waits 1 s, 2 s,
 *   4 s… (at most 15 min); a right password clears it;
 * - per address, whatever the accounts (password spraying): after 20,
 *   the same delays for every sign-in from it;
 * - per account, from anywhere (many addresses): after 50, the same delays,
 *   but only for sign-ins from a device that account has not signed in
 *   from: a known device (its signed cookie, KnownDevices) is counted on
 *   its own instead of by address, so the owner's browser still signs in
 *   whatever others try against the account or from the owner's network.
 * A try made too early is 429 RATE_LIMITED with Retry-After and is not
 * counted; each attempt is taken before the password is checked and given
 * back when it was right, so guesses racing each other cannot slip past.
 */
export class LoginThrottle {
  private readonly redis: ThrottleCommands;

  constructor(
    redis: Redis,
    private readonly keyPrefix: string,
    private readonly limits: LoginThrottleLimits = DEFAULT_LOGIN_LIMITS,
  ) {
    if (!('loginAttemptTake' in redis)) {
      redis.defineCommand('loginAttemptTake', { lua: TAKE });
      redis.defineCommand('loginAttemptGiveBack', { lua: GIVE_BACK });
    }
    this.redis = redis as ThrottleCommands;
  }

  /** The counters a sign-in draws on, the account's own (cleared by success) first, with their free failures. */
  private counters(email: string, source: SignInSource): Array<[string, number]> {
    // The email is hashed: Redis need not hold who tried to sign in.
    const account = `${this.keyPrefix}login-failures:${sha256(email.toLowerCase())}`;
    const { freePerAccountAddress, freePerAddress, freePerAccount } = this.limits;
    if (source.device) return [[`${account}:device:${source.device}`, freePerAccountAddress]];
    return [
      [`${account}:address:${source.address}`, freePerAccountAddress],
      [`${this.keyPrefix}login-failures:address:${source.address}`, freePerAddress],
      [`${account}:anywhere`, freePerAccount],
    ];
  }

  /** Takes an attempt, or throws 429 with Retry-After when this source must wait. */
  async take(email: string, source: SignInSource): Promise<void> {
    const counters = this.counters(email, source);
    const { baseDelayMs, maxDelayMs, forgetAfterMs } = this.limits;
    const [allowed, waitMs] = await this.redis.loginAttemptTake(
      counters.length,
      ...counters.map(([key]) => key),
      String(baseDelayMs),
      String(maxDelayMs),
      String(forgetAfterMs),
      ...counters.map(([, free]) => String(free)),
    );
    if (allowed === 1) return;
    const retryAfter = String(Math.max(1, Math.ceil(waitMs / 1000)));
    throw new ApiError(429, 'RATE_LIMITED', `Too many failed sign-ins; retry after ${retryAfter} s.`, { retryAfterMs: waitMs }, { 'Retry-After': retryAfter });
  }

  /** The attempt was a success: it does not count. */
  async giveBack(email: string, source: SignInSource): Promise<void> {
    const keys = this.counters(email, source).map(([key]) => key);
    await this.redis.loginAttemptGiveBack(keys.length, ...keys);
  }
}
