import type { Redis } from 'ioredis';
import type { Logger } from '@ris/logging';
import type { ReferralKeyDoc } from './referral-key.model';

/** A code's key stays this long after it was last written to Redis (a quiet code costs one database read later). */
const TTL_SECONDS = 30 * 86_400;

type CachedFields = Pick<ReferralKeyDoc, 'appId' | 'referralId' | 'campaignId' | 'referrerId' | 'code'>;

/**
 * The code keys of every replica, in Redis (`<prefix>codekey:<appId>:<code>`):
 * a code's key is put there when its referral is created, and when a
 * lookup had to read it from MongoDB. A click on a code this process has
 * not seen yet (most clicks of a large campaign: each link is clicked a
 * few times) then costs one Redis read instead of a database read, and
 * the clicks that arrive together read theirs in one round trip (the
 * client pipelines what is asked in one turn of the event loop).
 *
 * What a key holds never changes, so nothing is invalidated, and Redis is
 * a cache here, never needed: an entry lost to a flush, eviction or
 * expiry costs one database read, and while Redis fails every lookup goes
 * to MongoDB (a warning is logged once per outage).
 */
export class CodeKeyCache {
  private failing = false;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly logger: Logger,
  ) {}

  redisKey(id: string): string {
    return `${this.prefix}codekey:${id}`;
  }

  /** The key stored under this code key id, or null when Redis has none (or cannot answer). */
  async get(id: string): Promise<ReferralKeyDoc | null> {
    let raw: string | null;
    try {
      raw = await this.redis.get(this.redisKey(id));
    } catch (err) {
      this.failed(err);
      return null;
    }
    this.failing = false;
    if (!raw) return null;
    try {
      const fields = JSON.parse(raw) as CachedFields;
      return { _id: id, ...fields };
    } catch {
      // Not what put() writes: the database answers instead (and its key replaces this one).
      return null;
    }
  }

  /** Best effort: a key that could not be put is read from MongoDB next time. */
  async put(key: ReferralKeyDoc): Promise<void> {
    const fields: CachedFields = { appId: key.appId, referralId: key.referralId, campaignId: key.campaignId, referrerId: key.referrerId, code: key.code };
    try {
      await this.redis.set(this.redisKey(key._id), JSON.stringify(fields), 'EX', TTL_SECONDS);
      this.failing = false;
    } catch (err) {
      this.failed(err);
    }
  }

  private failed(err: unknown): void {
    if (!this.failing) this.logger.warn({ err: (err as Error).message }, 'code key cache (Redis) unavailable; reading code keys from MongoDB');
    this.failing = true;
  }
}
