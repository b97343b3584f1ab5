/** What the shared bucket gave: up to the tokens asked for, and when to retry when it gave none. */
export interface Grant {
  granted: number;
  retryMs: number;
  /** Whole tokens left in the shared bucket after this grant. */
  remaining: number;
}

export type TakeTokens = (key: string, want: number) => Promise<Grant>;

export type Admission = { allowed: true; remaining: number } | { allowed: false; retryMs: number };

export interface TokenLeaseOptions {
  /** Tokens taken beyond the requests waiting, so the next ones need no round trip. */
  lease: number;
  /** Leased tokens not spent by then lapse (they were charged; at most `lease` per key). */
  leaseMs: number;
  now?: () => number;
}

interface Waiter {
  resolve: (admission: Admission) => void;
  reject: (err: unknown) => void;
}

interface KeyState {
  tokens: number;
  expiresAt: number;
  remaining: number;
  waiters: Waiter[];
  fetching: boolean;
}

/**
 * A replica's share of a shared token bucket. Requests spend tokens this
 * process took from the bucket; when it has none, the requests waiting
 * for one take what they need (plus `lease` more) in one round trip, so
 * under load most requests are decided here, without one. The shared
 * bucket still decides how many requests pass in all: a burst of N
 * requests asks it for N tokens at once and gets at most what it holds.
 *
 * The price of leasing: a replica can hold up to `lease` tokens others
 * cannot use, for up to `leaseMs`, so the shared limit is exact to within
 * `lease` tokens per replica; the middleware keeps `lease` to a small
 * fraction of a second's rate (0, i.e. no lease, below 50 per second).
 */
export class TokenLease {
  private readonly keys = new Map<string, KeyState>();
  private readonly now: () => number;

  constructor(
    private readonly take: TakeTokens,
    private readonly options: TokenLeaseOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** Admits or refuses one request; synchronous (no promise) when a leased token is at hand. */
  admit(key: string): Admission | Promise<Admission> {
    const state = this.state(key);
    if (state.tokens >= 1 && this.now() < state.expiresAt && state.waiters.length === 0) {
      state.tokens -= 1;
      return { allowed: true, remaining: state.remaining + Math.floor(state.tokens) };
    }
    return new Promise<Admission>((resolve, reject) => {
      state.waiters.push({ resolve, reject });
      if (!state.fetching) this.refill(key, state);
    });
  }

  private state(key: string): KeyState {
    let state = this.keys.get(key);
    if (!state) {
      state = { tokens: 0, expiresAt: 0, remaining: 0, waiters: [], fetching: false };
      this.keys.set(key, state);
    }
    return state;
  }

  private refill(key: string, state: KeyState): void {
    state.fetching = true;
    // One turn of the event loop, so the requests of this turn ask together.
    setImmediate(() => {
      const want = state.waiters.length + this.options.lease;
      this.take(key, want).then(
        (grant) => {
          state.fetching = false;
          state.tokens = grant.granted;
          state.remaining = grant.remaining;
          state.expiresAt = this.now() + this.options.leaseMs;
          const waiters = state.waiters.splice(0);
          for (const waiter of waiters) {
            if (state.tokens >= 1) {
              state.tokens -= 1;
              waiter.resolve({ allowed: true, remaining: state.remaining + Math.floor(state.tokens) });
            } else if (grant.granted < want) {
              // The shared bucket ran dry: everyone still waiting is over the limit.
              waiter.resolve({ allowed: false, retryMs: Math.max(1, grant.retryMs) });
            } else {
              // Arrived while this grant was on its way and it was all spent: ask again.
              state.waiters.push(waiter);
            }
          }
          if (state.waiters.length > 0) this.refill(key, state);
          else if (state.tokens < 1) this.keys.delete(key);
        },
        (err: unknown) => {
          state.fetching = false;
          this.keys.delete(key);
          for (const waiter of state.waiters.splice(0)) waiter.reject(err);
        },
      );
    });
  }
}
