import type { Redis } from 'ioredis';
import type { BalanceState } from './balance-fold';
import { periodBounds, periodKey, type Period, type TimedPeriod } from './period-keys';
import { decodeXp, encodeScore } from './score-encoding';

/**
 * Redis layout, all under `<REDIS_KEY_PREFIX>lb:<appId>:` (one app's keys
 * can be listed, or flushed, with that pattern):
 *
 *   …ALL_TIME                 sorted set userId → score (score-encoding.ts)
 *   …DAILY:2026-11-21         one sorted set per day / ISO week / month,
 *   …WEEKLY:2026-W47          expiring some time after the period ends
 *   …MONTHLY:2026-11          (its snapshot is kept in MongoDB)
 *   …users                    hash userId → "<seq>|<coins>": the balance
 *                             version last written, and the coins to show
 *   …ready                    present once the boards were built from
 *                             MongoDB; absent after a flush
 *   …rebuilding               lock of a rebuild in progress
 *
 * Every write of a user carries the balance version (its ledger seq) and
 * is skipped when a newer version was written already, so writes that
 * arrive out of order (concurrent requests, a rebuild racing live events)
 * never put an older score back.
 */

const WRITE_USER = `
local current = redis.call('HGET', KEYS[1], ARGV[1])
if current then
  local sep = string.find(current, '|', 1, true)
  if sep and tonumber(string.sub(current, 1, sep - 1)) > tonumber(ARGV[2]) then return 0 end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. '|' .. ARGV[3])
for i = 2, #KEYS do
  local score = ARGV[2 + (i - 1) * 2]
  local ttl = tonumber(ARGV[3 + (i - 1) * 2])
  redis.call('ZADD', KEYS[i], score, ARGV[1])
  if ttl > 0 and redis.call('TTL', KEYS[i]) < 0 then redis.call('EXPIRE', KEYS[i], ttl) end
end
return 1
`;

/** The top of a board with the coins of each user, in one round trip; nil when the board is not built. */
const READ_TOP = `
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
local top = redis.call('ZREVRANGE', KEYS[2], 0, tonumber(ARGV[1]) - 1, 'WITHSCORES')
if #top == 0 then return {top, {}} end
local ids = {}
for i = 1, #top, 2 do ids[#ids + 1] = top[i] end
return {top, redis.call('HMGET', KEYS[3], unpack(ids))}
`;

/**
 * Users' ranks (0-based), scores and coins, flat: id, rank, score, coins for
 * each user on the board (users not on it are left out); nil when the board
 * is not built.
 */
const READ_ENTRIES = `
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
local out = {}
for i = 1, #ARGV do
  local rank = redis.call('ZREVRANK', KEYS[2], ARGV[i])
  if rank then
    out[#out + 1] = ARGV[i]
    out[#out + 1] = rank
    out[#out + 1] = redis.call('ZSCORE', KEYS[2], ARGV[i])
    out[#out + 1] = redis.call('HGET', KEYS[3], ARGV[i]) or ''
  end
end
return out
`;

const RELEASE_LOCK = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

interface BoardCommands {
  lbWriteUser(...args: Array<string | number>): Promise<number>;
  lbReadTop(...args: Array<string | number>): Promise<[string[], Array<string | null>] | null>;
  lbReadEntries(...args: Array<string | number>): Promise<Array<string | number> | null>;
  lbReleaseLock(key: string, token: string): Promise<number>;
}

export interface BoardEntry {
  rank: number;
  userId: string;
  xp: number;
  coins: number;
}

/** A period board stays in Redis this long after its period ended. */
const KEEP_AFTER_END_S: Record<TimedPeriod, number> = { DAILY: 3 * 86_400, WEEKLY: 14 * 86_400, MONTHLY: 62 * 86_400 };

const FIELD_PERIOD: Record<string, TimedPeriod> = { D: 'DAILY', W: 'WEEKLY', M: 'MONTHLY' };

function coinsFrom(meta: string | null | undefined): number {
  if (!meta) return 0;
  const sep = meta.indexOf('|');
  return Number(meta.slice(sep + 1)) || 0;
}

export type RedisWithBoards = Redis & BoardCommands;

/** Teaches a Redis client the board scripts (EVALSHA, loaded on first use). */
export function withBoardCommands(redis: Redis): RedisWithBoards {
  const r = redis as RedisWithBoards;
  if (typeof r.lbWriteUser !== 'function') {
    redis.defineCommand('lbWriteUser', { lua: WRITE_USER });
    redis.defineCommand('lbReadTop', { numberOfKeys: 3, lua: READ_TOP });
    redis.defineCommand('lbReadEntries', { numberOfKeys: 3, lua: READ_ENTRIES });
    redis.defineCommand('lbReleaseLock', { numberOfKeys: 1, lua: RELEASE_LOCK });
  }
  return r;
}

export class LeaderboardStore {
  readonly redis: RedisWithBoards;

  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    this.redis = withBoardCommands(redis);
  }

  appPrefix(appId: string): string {
    return `${this.prefix}lb:${appId}:`;
  }

  boardKey(appId: string, period: Period, key: string): string {
    return period === 'ALL_TIME' ? `${this.appPrefix(appId)}ALL_TIME` : `${this.appPrefix(appId)}${period}:${key}`;
  }

  private usersKey = (appId: string) => `${this.appPrefix(appId)}users`;
  private readyKey = (appId: string) => `${this.appPrefix(appId)}ready`;
  private lockKey = (appId: string) => `${this.appPrefix(appId)}rebuilding`;

  /**
   * The arguments that put a user's balance on every board it belongs to:
   * ALL_TIME, and each day/week/month the balance still holds XP for.
   */
  userWrite(appId: string, userId: string, state: BalanceState, now = new Date()): Array<string | number> {
    const keys = [this.usersKey(appId), this.boardKey(appId, 'ALL_TIME', '')];
    const args: Array<string | number> = [userId, state.seq, state.coins, encodeScore(state.xp, state.xpChangedAt ?? new Date(0)), 0];
    for (const [field, value] of Object.entries(state.periods)) {
      const period = FIELD_PERIOD[field[0]];
      if (!period) continue;
      const key = field.slice(1);
      const { end } = periodBounds(period, value.at);
      const ttl = Math.ceil((end.getTime() - now.getTime()) / 1000) + KEEP_AFTER_END_S[period];
      if (ttl <= 0) continue;
      keys.push(this.boardKey(appId, period, key));
      args.push(encodeScore(value.xp, value.at), ttl);
    }
    return [keys.length, ...keys, ...args];
  }

  async writeUser(appId: string, userId: string, state: BalanceState): Promise<void> {
    await this.redis.lbWriteUser(...this.userWrite(appId, userId, state));
  }

  /** null when the board has not been built (flushed Redis, new app). */
  async top(appId: string, period: Period, limit: number, now = new Date()): Promise<BoardEntry[] | null> {
    const reply = await this.redis.lbReadTop(this.readyKey(appId), this.boardKey(appId, period, periodKey(period, now)), this.usersKey(appId), limit);
    if (!reply) return null;
    const [flat, metas] = reply;
    const entries: BoardEntry[] = [];
    for (let i = 0; i < flat.length; i += 2) {
      entries.push({ rank: i / 2 + 1, userId: flat[i], xp: decodeXp(Number(flat[i + 1])), coins: coinsFrom(metas[i / 2]) });
    }
    return entries;
  }

  /** undefined when the user is not on the board; null when the board has not been built. */
  async entry(appId: string, period: Period, userId: string, now = new Date()): Promise<BoardEntry | undefined | null> {
    const found = await this.entries(appId, period, [userId], now);
    return found === null ? null : found[0];
  }

  /** The entries of those of `userIds` on the board, in one round trip; null when the board has not been built. */
  async entries(appId: string, period: Period, userIds: string[], now = new Date()): Promise<BoardEntry[] | null> {
    const reply = await this.redis.lbReadEntries(this.readyKey(appId), this.boardKey(appId, period, periodKey(period, now)), this.usersKey(appId), ...userIds);
    if (!reply) return null;
    const entries: BoardEntry[] = [];
    for (let i = 0; i < reply.length; i += 4) {
      entries.push({ rank: Number(reply[i + 1]) + 1, userId: String(reply[i]), xp: decodeXp(Number(reply[i + 2])), coins: coinsFrom(String(reply[i + 3])) });
    }
    return entries;
  }

  /** Takes the app's rebuild lock (one rebuild at a time across replicas); null if taken. */
  async lock(appId: string, token: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(this.lockKey(appId), token, 'PX', ttlMs, 'NX')) === 'OK';
  }

  async unlock(appId: string, token: string): Promise<void> {
    await this.redis.lbReleaseLock(this.lockKey(appId), token);
  }

  /** Removes the app's boards (not the lock): reads answer "not built" until markBuilt. */
  async clear(appId: string): Promise<void> {
    const lock = this.lockKey(appId);
    await this.redis.del(this.readyKey(appId));
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${this.appPrefix(appId)}*`, 'COUNT', 1000);
      cursor = next;
      const doomed = keys.filter((k) => k !== lock);
      if (doomed.length) await this.redis.unlink(...doomed);
    } while (cursor !== '0');
  }

  /** Writes many users in one pipeline (rebuilds). */
  async writeUsers(appId: string, users: Array<{ userId: string; state: BalanceState }>): Promise<void> {
    if (users.length === 0) return;
    const pipeline = this.redis.pipeline() as ReturnType<Redis['pipeline']> & { lbWriteUser(...args: Array<string | number>): unknown };
    for (const { userId, state } of users) pipeline.lbWriteUser(...this.userWrite(appId, userId, state));
    const results = await pipeline.exec();
    const failed = results?.find(([err]) => err);
    if (failed) throw failed[0];
  }

  async markBuilt(appId: string): Promise<void> {
    await this.redis.set(this.readyKey(appId), new Date().toISOString());
  }
}

