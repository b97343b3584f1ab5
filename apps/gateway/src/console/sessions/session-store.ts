import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { OperatorIdentity } from '../access/principal';

/** A signed-in browser: who, its CSRF token, and when it started and was last seen (Redis's clock, ms). */
export interface Session extends OperatorIdentity {
  /** SHA-256 of the session id: what Redis keys it by (the id itself is only in the cookie). */
  hash: string;
  csrfToken: string;
  createdAt: number;
  lastSeenAt: number;
}

export interface SessionLifetimes {
  /** Ends after this long without a request (sliding). */
  idleMs: number;
  /** Ends this long after sign-in, however busy. */
  maxAgeMs: number;
}

// Creates the session hash and lists it under its operator (so a password
// reset can end them all), with Redis's clock as the start.
const CREATE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('HSET', KEYS[1], 'operatorId', ARGV[1], 'email', ARGV[2], 'isAdmin', ARGV[3], 'csrfToken', ARGV[4], 'createdAt', now, 'lastSeenAt', now)
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('SADD', KEYS[2], ARGV[7])
redis.call('PEXPIRE', KEYS[2], ARGV[6])
return now
`;

// Reads a session and slides its idle expiry, never past its absolute end;
// one past that end is deleted. One round trip per request.
const TOUCH = `
local s = redis.call('HMGET', KEYS[1], 'operatorId', 'email', 'isAdmin', 'csrfToken', 'createdAt')
if not s[1] then return nil end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local left = tonumber(s[5]) + tonumber(ARGV[2]) - now
if left <= 0 then
  redis.call('DEL', KEYS[1])
  return nil
end
redis.call('HSET', KEYS[1], 'lastSeenAt', now)
redis.call('PEXPIRE', KEYS[1], math.min(tonumber(ARGV[1]), left))
return { s[1], s[2], s[3], s[4], s[5], tostring(now) }
`;

type SessionCommands = Redis & {
  sessionCreate(key: string, list: string, ...args: string[]): Promise<number>;
  sessionTouch(key: string, idleMs: string, maxAgeMs: string): Promise<string[] | null>;
};

/** Session ids are 32 random bytes in base64url; anything else is not one of ours (and is not looked up). */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * Server-side sessions in Redis: the cookie holds a random id, Redis holds
 * what it stands for under the id's SHA-256 (whoever reads Redis cannot
 * sign in with what they read). Ended by sign-out, idle time, age, or a
 * password change or reset of the operator (every session of theirs).
 */
export class SessionStore {
  private readonly redis: SessionCommands;

  constructor(
    redis: Redis,
    private readonly keyPrefix: string,
    readonly lifetimes: SessionLifetimes,
  ) {
    if (!('sessionTouch' in redis)) {
      redis.defineCommand('sessionCreate', { numberOfKeys: 2, lua: CREATE });
      redis.defineCommand('sessionTouch', { numberOfKeys: 1, lua: TOUCH });
    }
    this.redis = redis as SessionCommands;
  }

  private key(hash: string): string {
    return `${this.keyPrefix}session:${hash}`;
  }

  private listOf(operatorId: string): string {
    return `${this.keyPrefix}operator-sessions:${operatorId}`;
  }

  /** A new session (a new id at every sign-in); the id goes in the cookie and nowhere else. */
  async create(operator: OperatorIdentity): Promise<{ id: string; session: Session }> {
    const id = randomBytes(32).toString('base64url');
    const hash = sha256(id);
    const csrfToken = randomBytes(32).toString('base64url');
    const now = await this.redis.sessionCreate(
      this.key(hash),
      this.listOf(operator.operatorId),
      operator.operatorId,
      operator.email,
      operator.isAdmin ? '1' : '0',
      csrfToken,
      String(this.lifetimes.idleMs),
      String(this.lifetimes.maxAgeMs),
      hash,
    );
    return { id, session: { ...operator, hash, csrfToken, createdAt: now, lastSeenAt: now } };
  }

  /** The live session of a cookie's id, its idle expiry moved on; null when there is none (unknown, ended, expired). */
  async touch(id: string): Promise<Session | null> {
    if (!SESSION_ID.test(id)) return null;
    const hash = sha256(id);
    const found = await this.redis.sessionTouch(this.key(hash), String(this.lifetimes.idleMs), String(this.lifetimes.maxAgeMs));
    if (!found) return null;
    const [operatorId, email, isAdmin, csrfToken, createdAt, lastSeenAt] = found;
    return { operatorId, email, isAdmin: isAdmin === '1', hash, csrfToken, createdAt: Number(createdAt), lastSeenAt: Number(lastSeenAt) };
  }

  /** Ends one session (sign-out). */
  async end(session: Pick<Session, 'hash' | 'operatorId'>): Promise<void> {
    await this.redis.multi().del(this.key(session.hash)).srem(this.listOf(session.operatorId), session.hash).exec();
  }

  /** Ends every session of the operator but `keep` (a password change keeps the session that made it). */
  async endAllOf(operatorId: string, keep?: string): Promise<void> {
    const hashes = (await this.redis.smembers(this.listOf(operatorId))).filter((h) => h !== keep);
    if (hashes.length === 0) return;
    await this.redis
      .multi()
      .del(...hashes.map((h) => this.key(h)))
      .srem(this.listOf(operatorId), ...hashes)
      .exec();
  }
}
