import type { ApiResponse } from '@ris/testing';

/**
 * Each test app has the shared e2e gateway's per-app rate limit (raised to
 * 2000/s in global-setup). Tests that fire many requests at once still
 * retry a 429 after its Retry-After, so they test the engine, not the
 * limiter, whatever limit the stack runs with.
 */
export async function retryRateLimited<T>(call: () => Promise<ApiResponse<T>>, attempts = 20): Promise<ApiResponse<T>> {
  for (let attempt = 1; ; attempt += 1) {
    const res = await call();
    if (res.status !== 429 || attempt >= attempts) return res;
    const wait = Number(res.headers.get('retry-after') ?? '1') * 1000;
    await new Promise((resolve) => setTimeout(resolve, wait * (0.5 + Math.random())));
  }
}
