import type { Request, RequestHandler, Response } from 'express';
import type { Redis } from 'ioredis';
import type { Logger } from '@ris/logging';
import { ApiError } from './api-error';
import { rateLimitRefusals } from './gateway-metrics';
import { TokenLease, type Admission } from './token-lease';

// Token bucket kept in Redis so every gateway replica draws from the same
// bucket. Redis's own clock is used, so replicas' clocks do not matter.
// Takes up to ARGV[3] tokens at once (what a replica's waiting requests
// need, plus its lease); returns how many it took, when one more will be
// there if that was fewer, and the whole tokens left.
const TOKEN_BUCKET = `
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local want = tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(state[1]) or burst
local ts = tonumber(state[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - ts) * rate / 1000)
local granted = math.min(want, math.floor(tokens))
tokens = tokens - granted
local retry_ms = 0
if granted < want then retry_ms = math.ceil((1 - tokens) * 1000 / rate) end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', now)
redis.call('PEXPIRE', KEYS[1], math.ceil(burst * 1000 / rate) + 1000)
return { granted, retry_ms, math.floor(tokens) }
`;

export interface RateLimitOptions {
  perSecond: number;
  burst: number;
  keyPrefix: string;
  /** Whose bucket a request draws from; default its app (res.locals.appId, set by authentication). */
  bucketOf?: (req: Request, res: Response) => string;
}

type WithTokenBucket = Redis & {
  rateLimitTake(key: string, perSecond: number, burst: number, want: number): Promise<[number, number, number]>;
};

/** Leased tokens unspent after this lapse. */
const LEASE_MS = 1000;

/**
 * Tokens a replica takes beyond what its waiting requests need: 20 ms of
 * the rate (none below 50 per second, at most 1000), so at most 2% of an
 * app's rate per replica can sit unused in one replica's hands.
 */
const leaseSize = (perSecond: number) => Math.min(1000, Math.floor(perSecond / 50));

/**
 * Per-app limit (the app is the key's owner), one token bucket in Redis
 * shared by every replica, spent through a local lease (TokenLease): at a
 * high rate most requests are admitted without a Redis round trip. If
 * Redis is unreachable the request is let through and a warning logged:
 * the limiter protects the service, it must not become the reason it is
 * down.
 */
export function rateLimit(redis: Redis, options: RateLimitOptions, logger: Logger): RequestHandler {
  // EVALSHA of the loaded script (ioredis loads it on first use), not the
  // script's text with every request.
  if (!('rateLimitTake' in redis)) redis.defineCommand('rateLimitTake', { numberOfKeys: 1, lua: TOKEN_BUCKET });
  const bucket = redis as WithTokenBucket;
  const lease = new TokenLease(
    async (key, want) => {
      const [granted, retryMs, remaining] = await bucket.rateLimitTake(key, options.perSecond, options.burst, want);
      return { granted, retryMs, remaining };
    },
    { lease: leaseSize(options.perSecond), leaseMs: LEASE_MS },
  );

  const decide = (res: Response, admission: Admission): ApiError | undefined => {
    res.setHeader('X-RateLimit-Limit', String(options.perSecond));
    if (admission.allowed) {
      res.setHeader('X-RateLimit-Remaining', String(Math.max(0, admission.remaining)));
      return undefined;
    }
    res.setHeader('X-RateLimit-Remaining', '0');
    rateLimitRefusals.inc();
    const retryAfter = String(Math.max(1, Math.ceil(admission.retryMs / 1000)));
    return new ApiError(429, 'RATE_LIMITED', `Too many requests; retry after ${retryAfter} s.`, { retryAfterMs: admission.retryMs }, {
      'Retry-After': retryAfter,
    });
  };

  const bucketOf = options.bucketOf ?? ((_req: Request, res: Response) => res.locals.appId as string);
  return (req, res, next) => {
    const admission = lease.admit(`${options.keyPrefix}ratelimit:${bucketOf(req, res)}`);
    if (!(admission instanceof Promise)) return next(decide(res, admission));
    admission.then(
      (decided) => next(decide(res, decided)),
      (err: unknown) => {
        logger.warn({ err }, 'rate limiter unavailable; request allowed');
        next();
      },
    );
  };
}
