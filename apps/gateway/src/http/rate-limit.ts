import type { RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import type { Logger } from '@ris/logging';
import { ApiError } from './api-error';

// Token bucket kept in Redis so every gateway replica draws from the same
// bucket. Redis's own clock is used, so replicas' clocks do not matter.
const TOKEN_BUCKET = `
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(state[1]) or burst
local ts = tonumber(state[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - ts) * rate / 1000)
local allowed = 0
local retry_ms = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
else
  retry_ms = math.ceil((1 - tokens) * 1000 / rate)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', now)
redis.call('PEXPIRE', KEYS[1], math.ceil(burst * 1000 / rate) + 1000)
return { allowed, retry_ms, math.floor(tokens) }
`;

export interface RateLimitOptions {
  perSecond: number;
  burst: number;
  keyPrefix: string;
}

type WithTokenBucket = Redis & { rateLimitTake(key: string, perSecond: number, burst: number): Promise<[number, number, number]> };

/**
 * Per-app limit (the app is the key's owner). If Redis is unreachable the
 * request is let through and a warning logged: the limiter protects the
 * service, it must not become the reason it is down.
 */

export function rateLimit(redis: Redis, options: RateLimitOptions, logger: Logger): RequestHandler {
  // EVALSHA of the loaded script (ioredis loads it on first use), not the
  // script's text with every request.
  if (!('rateLimitTake' in redis)) redis.defineCommand('rateLimitTake', { numberOfKeys: 1, lua: TOKEN_BUCKET });
  const bucket = redis as WithTokenBucket;
  return async (_req, res, next) => {
    const appId = res.locals.appId as string;
    let result: [number, number, number];
    try {
      result = await bucket.rateLimitTake(`${options.keyPrefix}ratelimit:${appId}`, options.perSecond, options.burst);
    } catch (err) {
      logger.warn({ err }, 'rate limiter unavailable; request allowed');
      return next();
    }
    const [allowed, retryMs, remaining] = result;
    res.setHeader('X-RateLimit-Limit', String(options.perSecond));
    res.setHeader('X-RateLimit-Remaining', String(Math.max(0, remaining)));
    if (allowed === 1) return next();
    const retryAfter = String(Math.max(1, Math.ceil(retryMs / 1000)));
    next(
      new ApiError(429, 'RATE_LIMITED', `Too many requests; retry after ${retryAfter} s.`, { retryAfterMs: retryMs }, {
        'Retry-After': retryAfter,
      }),
    );
  };
}
