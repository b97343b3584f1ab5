import type { Redis } from 'ioredis';
import type { Logger } from '@ris/logging';

// One counter per client address and code for a fixed hour: INCR, and the
// expiry set by the first visit of the hour. Returns the count so far.
const COUNT_VISIT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return n
`;

type WithVisitCounter = Redis & { linkClickCount(key: string, windowSeconds: number): Promise<number> };

const WINDOW_SECONDS = 3600;

/**
 * How many clicks of one address on one hosted link count per hour
 * (LINK_CLICKS_PER_IP_PER_HOUR): past it the visitor is still sent on, but
 * the click is not recorded, so a reload loop or a script cannot inflate a
 * link's clicks. Kept in Redis so that every gateway replica shares it; if
 * Redis cannot answer, the click counts (the fraud service's IP velocity
 * rule still sees it).
 */
export class LinkClickLimit {
  private readonly redis: WithVisitCounter;
  private failing = false;

  constructor(
    redis: Redis,
    private readonly options: { perHour: number; keyPrefix: string },
    private readonly logger: Logger,
  ) {
    if (!('linkClickCount' in redis)) redis.defineCommand('linkClickCount', { numberOfKeys: 1, lua: COUNT_VISIT });
    this.redis = redis as WithVisitCounter;
  }

  /** Whether this visit's click counts (and counts it). */
  async admit(address: string, appId: string, code: string): Promise<boolean> {
    try {
      const count = await this.redis.linkClickCount(`${this.options.keyPrefix}linkclicks:${appId}:${code}:${address}`, WINDOW_SECONDS);
      this.failing = false;
      return count <= this.options.perHour;
    } catch (err) {
      if (!this.failing) this.logger.warn({ err: (err as Error).message }, 'hosted link click limit (Redis) unavailable; clicks counted');
      this.failing = true;
      return true;
    }
  }
}
