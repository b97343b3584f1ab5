import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { FailureThrottle, type FailureCounter, type ThrottleDelays } from './failure-throttle';

export interface LoginThrottleLimits extends ThrottleDelays {
  /** Failed sign-ins of one account from one address (or one known device) before each further try waits. */
  freePerAccountAddress: number;
  /** Failed sign-ins from one address, whatever the accounts, before each further try from it waits. */
  freePerAddress: number;
  /** Failed sign-ins of one account from anywhere before each further try from a device it does not know waits. */
  freePerAccount: number;
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
  private readonly failures: FailureThrottle;

  constructor(
    redis: Redis,
    private readonly keyPrefix: string,
    private readonly limits: LoginThrottleLimits = DEFAULT_LOGIN_LIMITS,
  ) {
    this.failures = new FailureThrottle(redis, limits, (retryAfter) => `Too many failed sign-ins; retry after ${retryAfter} s.`);
  }

  /** The counters a sign-in draws on, the account's own (cleared by success) first, with their free failures. */
  private counters(email: string, source: SignInSource): FailureCounter[] {
    // The email is hashed: Redis need not hold who tried to sign in.
    const account = `${this.keyPrefix}login-failures:${sha256(email.toLowerCase())}`;
    const { freePerAccountAddress, freePerAddress, freePerAccount } = this.limits;
    if (source.device) return [{ key: `${account}:device:${source.device}`, free: freePerAccountAddress }];
    return [
      { key: `${account}:address:${source.address}`, free: freePerAccountAddress },
      { key: `${this.keyPrefix}login-failures:address:${source.address}`, free: freePerAddress },
      { key: `${account}:anywhere`, free: freePerAccount },
    ];
  }

  /** Takes an attempt, or throws 429 with Retry-After when this source must wait. */
  take(email: string, source: SignInSource): Promise<void> {
    return this.failures.take(this.counters(email, source));
  }

  /** The attempt was a success: it does not count, and the account's own counter starts afresh. */
  giveBack(email: string, source: SignInSource): Promise<void> {
    return this.failures.giveBack(this.counters(email, source).map((c) => c.key), 1);
  }
}
