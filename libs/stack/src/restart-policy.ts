/** How a supervised app is restarted after it exits unexpectedly. */
export interface SupervisionPolicy {
  /** Delay before the first restart; doubles with each exit that follows, up to maxBackoffMs. */
  initialBackoffMs: number;
  maxBackoffMs: number;
  /** A process that ran this long before exiting was healthy: the backoff and the exit count start over. */
  healthyAfterMs: number;
  /** Give up after this many exits within giveUpWindowMs (a process that cannot stay up). */
  giveUpAfterExits: number;
  giveUpWindowMs: number;
}

export const DEFAULT_SUPERVISION: SupervisionPolicy = {
  initialBackoffMs: 500,
  maxBackoffMs: 30_000,
  healthyAfterMs: 30_000,
  giveUpAfterExits: 5,
  giveUpWindowMs: 60_000,
};

export type RestartDecision =
  | { restart: true; delayMs: number; recentExits: number }
  | { restart: false; recentExits: number };

/** One app's exits and backoff: what to do after each exit. */
export class RestartPolicy {
  private backoffMs: number;
  private exits: number[] = [];

  constructor(readonly policy: SupervisionPolicy = DEFAULT_SUPERVISION) {
    this.backoffMs = policy.initialBackoffMs;
  }

  /** The app exited at `now` (ms) after running `uptimeMs`. */
  onExit(now: number, uptimeMs: number): RestartDecision {
    if (uptimeMs >= this.policy.healthyAfterMs) {
      this.backoffMs = this.policy.initialBackoffMs;
      this.exits = [];
    }
    this.exits = [...this.exits.filter((at) => now - at < this.policy.giveUpWindowMs), now];
    if (this.exits.length >= this.policy.giveUpAfterExits) return { restart: false, recentExits: this.exits.length };
    const delayMs = this.backoffMs;
    this.backoffMs = Math.min(this.backoffMs * 2, this.policy.maxBackoffMs);
    return { restart: true, delayMs, recentExits: this.exits.length };
  }
}
