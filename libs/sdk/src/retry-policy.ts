/** How failed requests are retried. */
export interface RetryOptions {
  /** Retries after the first try (default 3; 0 turns retries off). */
  maxRetries?: number;
  /** The first retry's delay before jitter, doubled for each later one (default 250 ms). */
  baseDelayMs?: number;
  /** The longest delay between two tries, and the longest Retry-After honoured (default 20 s): a longer one ends the retries. */
  maxDelayMs?: number;
}

export const DEFAULT_RETRY: Required<RetryOptions> = { maxRetries: 3, baseDelayMs: 250, maxDelayMs: 20_000 };

/**
 * What to retry, and whether it is safe:
 * - 429 (rate limited) always: the gateway refuses it before doing anything;
 * - 503 (a dependency unavailable), a timeout and a network error only when
 *   the request is idempotent: a GET, or a POST with an Idempotency-Key
 *   (the API runs a retry with the key as the same operation, so it is
 *   applied once). Anything else might be applied twice.
 */
export type Failure = { kind: 'status'; status: number } | { kind: 'timeout' } | { kind: 'network' };

export function retryable(failure: Failure, idempotent: boolean): boolean {
  if (failure.kind === 'status') return failure.status === 429 || (failure.status === 503 && idempotent);
  return idempotent;
}

/**
 * The delay before retry number `attempt` (1 for the first): the server's
 * Retry-After when it sent one, else exponential backoff with full jitter
 * (a random delay up to base × 2^(attempt−1), at most maxDelayMs), so many
 * clients failing together do not retry together.
 */
export function retryDelayMs(attempt: number, options: Required<RetryOptions>, retryAfterMs?: number, random: () => number = Math.random): number {
  if (retryAfterMs !== undefined) return retryAfterMs + Math.floor(random() * 100);
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  return Math.max(1, Math.floor(random() * ceiling));
}

/** `Retry-After` in milliseconds: seconds or an HTTP date (RFC 9110); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
