import type { Redis } from 'ioredis';
import { ApiError } from '../../http/api-error';

/** How long tries wait once a counter is past its free failures. */
export interface ThrottleDelays {
  /** The first wait; each further failure doubles it. */
  baseDelayMs: number;
  /** The ceiling: no wait is ever longer. */
  maxDelayMs: number;
  /** Failures of a counter are forgotten this long after its last one. */
  forgetAfterMs: number;
}

/** One counter of failures: its Redis key, and the failures it lets through before each further try waits. */
export interface FailureCounter {
  key: string;
  free: number;
}

// Each counter is a hash {f: failures, t: ms of the last one}. A counter
// past its free failures makes the next try wait base * 2^(failures - free)
// (at most the ceiling) after its last failure. Takes one attempt from
// every counter unless one makes it wait, in one step, so concurrent
// tries cannot pass together: an attempt counts as a failure until it is
// given back. Answers {1, 0} or {0, ms to wait}.
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

// An attempt that was no failure: the first ARGV[1] counters start afresh
// (a right password clears its own), the others only get this attempt back.
const GIVE_BACK = `
local cleared = tonumber(ARGV[1])
for i = 1, #KEYS do
  if i <= cleared then
    redis.call('DEL', KEYS[i])
  elseif tonumber(redis.call('HGET', KEYS[i], 'f') or '0') > 0 then
    redis.call('HINCRBY', KEYS[i], 'f', -1)
  end
end
return 1
`;

type ThrottleCommands = Redis & {
  failureTake(numberOfKeys: number, ...args: string[]): Promise<[number, number]>;
  failureGiveBack(numberOfKeys: number, ...args: string[]): Promise<number>;
};

/**
 * Progressive delays after failures, counted in Redis (shared by every
 * gateway replica): the mechanics of the sign-in throttle (LoginThrottle)
 * and of guessed invitation links (InvitationGuesses), which choose the
 * counters. Each attempt is taken before it is checked and given back when
 * it was no failure, so tries racing each other cannot slip past; a try
 * made too early is 429 RATE_LIMITED with Retry-After and is not counted.
 */
export class FailureThrottle {
  private readonly redis: ThrottleCommands;

  constructor(
    redis: Redis,
    private readonly delays: ThrottleDelays,
    /** The 429's message, given the seconds to wait. */
    private readonly refusal: (retryAfterSeconds: string) => string,
  ) {
    if (!('failureTake' in redis)) {
      redis.defineCommand('failureTake', { lua: TAKE });
      redis.defineCommand('failureGiveBack', { lua: GIVE_BACK });
    }
    this.redis = redis as ThrottleCommands;
  }

  /** Takes an attempt from every counter, or throws 429 with Retry-After when one makes this try wait. */
  async take(counters: FailureCounter[]): Promise<void> {
    const { baseDelayMs, maxDelayMs, forgetAfterMs } = this.delays;
    const [allowed, waitMs] = await this.redis.failureTake(
      counters.length,
      ...counters.map((c) => c.key),
      String(baseDelayMs),
      String(maxDelayMs),
      String(forgetAfterMs),
      ...counters.map((c) => String(c.free)),
    );
    if (allowed === 1) return;
    const retryAfter = String(Math.max(1, Math.ceil(waitMs / 1000)));
    throw new ApiError(429, 'RATE_LIMITED', this.refusal(retryAfter), { retryAfterMs: waitMs }, { 'Retry-After': retryAfter });
  }

  /** The attempt was no failure: the first `cleared` counters start afresh, the rest get it back. */
  async giveBack(keys: string[], cleared: number): Promise<void> {
    await this.redis.failureGiveBack(keys.length, ...keys, String(cleared));
  }
}
