import { DEFAULT_RETRY, parseRetryAfter, retryable, retryDelayMs } from './retry-policy';

describe('retry policy', () => {
  it('retries a 429 always, and a 503, a timeout or a network error only when the request is idempotent', () => {
    expect(retryable({ kind: 'status', status: 429 }, false)).toBe(true);
    for (const failure of [{ kind: 'status', status: 503 }, { kind: 'timeout' }, { kind: 'network' }] as const) {
      expect([failure, retryable(failure, true), retryable(failure, false)]).toEqual([failure, true, false]);
    }
    for (const status of [400, 401, 404, 409, 422, 500, 502]) expect(retryable({ kind: 'status', status }, true)).toBe(false);
  });

  it('backs off exponentially with full jitter, capped, and honours Retry-After', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, DEFAULT_RETRY, undefined, () => 0.999))).toEqual([249, 499, 999, 1998]);
    expect(retryDelayMs(30, DEFAULT_RETRY, undefined, () => 0.999)).toBe(19_980);
    expect(retryDelayMs(1, DEFAULT_RETRY, undefined, () => 0)).toBe(1);
    expect(retryDelayMs(1, DEFAULT_RETRY, 2000, () => 0.5)).toBe(2050);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(10_000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});
