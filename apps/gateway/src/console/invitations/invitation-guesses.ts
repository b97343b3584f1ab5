import type { Redis } from 'ioredis';
import { FailureThrottle, type ThrottleDelays } from '../sessions/failure-throttle';

/**
 * Slows the guessing of invitation links: every read or acceptance of a
 * link takes an attempt of its client address and gives it back when the
 * link was a real one, so only unknown, used, revoked or expired links
 * count. Past the free ones each further try from the address waits 1 s,
 * 2 s, 4 s… (the sign-in delays), real links too, so a waiting address
 * learns nothing. A real link never clears the counter (an OWNER could
 * otherwise reset it with a link of their own app). Tokens have 256
 * bits: this bounds the load of guessing more than its odds.
 */
export class InvitationGuesses {
  private readonly failures: FailureThrottle;

  constructor(
    redis: Redis,
    private readonly keyPrefix: string,
    private readonly freePerAddress: number,
    delays: ThrottleDelays,
  ) {
    this.failures = new FailureThrottle(redis, delays, (retryAfter) => `Too many unknown invitation links; retry after ${retryAfter} s.`);
  }

  private key(address: string): string {
    return `${this.keyPrefix}invitation-misses:address:${address}`;
  }

  /** Takes an attempt of the address, or throws 429 with Retry-After while it must wait. */
  take(address: string): Promise<void> {
    return this.failures.take([{ key: this.key(address), free: this.freePerAddress }]);
  }

  /** The link was a real one: the attempt does not count. */
  giveBack(address: string): Promise<void> {
    return this.failures.giveBack([this.key(address)], 0);
  }
}
