import type { Redis } from 'ioredis';
import type { BalanceState } from '../ledger/balance-fold';
import { periodBounds, periodField, periodKey, type Period, type TimedPeriod } from './period-keys';
import { TIE_DIGITS, boardMember, boardScore, tieOf, userIdOfMember, xpOfScore } from './score-encoding';

/**
 * Redis layout, all under `<REDIS_KEY_PREFIX>lb:<appId>:` (one app's keys
 * can be listed, or flushed, with that pattern), in layout v2:
 *
 *   …v2:ALL_TIME              sorted set: score −xp, member "<ms>:<userId>"
 *                             (score-encoding.ts: XP, then who reached it
 *                             first, to the millisecond)
 *   …v2:DAILY:2026-11-21      one sorted set per day / ISO week / month,
 *   …v2:WEEKLY:2026-W47       expiring some time after the period ends
 *   …v2:MONTHLY:2026-11       (its snapshot is kept in MongoDB)
 *   …v2:users                 hash userId → userMeta(): the balance version
 *                             last written, the coins to show, and the
 *                             times in the user's members
 *   …v2:ready                 present once the boards were built from
 *                             MongoDB; absent after a flush
 *   …rebuilding               lock of a rebuild in progress
 *
 * Layout v1 (keys right under `lb:<appId>:`, the time inside the score, to
 * the second) is what earlier releases wrote. This code neither reads nor
 * writes it: an app's v2 boards are built from MongoDB on their first read
 * after an upgrade (docs/incentive-engine.md says what an operator does
 * after a rolling upgrade, and how to drop the v1 keys).
 *
 * Every write of a user carries the balance version (its ledger seq) and
 * is skipped when a newer version was written already, so writes that
 * arrive out of order (concurrent requests, a rebuild racing live events)
 * never put an older score back.
 */

const LAYOUT = 'v2:';

/**
 * The time in a user's member on a board, from their users-hash value
 * "<seq>|<coins>|<time>[|<period field>=<time>]…": the board's own time when
 * listed, else the all-time one (a period board's time is listed only when
 * it differs); nil for a value without times. field '' = ALL_TIME.
 */
const TIE_IN = `
local function tieIn(meta, field)
  if field ~= '' then
    local at = string.find(meta, '|' .. field .. '=', 1, true)
    if at then return string.sub(meta, at + #field + 2, at + #field + 1 + ${TIE_DIGITS}) end
  end
  local a = string.find(meta, '|', 1, true)
  local b = a and string.find(meta, '|', a + 1, true)
  if not b then return nil end
  return string.sub(meta, b + 1, b + ${TIE_DIGITS})
end
`;

/**
 * KEYS: users hash, then the boards. ARGV: userId, seq, users-hash value,
 * then per board: its period field ('' for ALL_TIME), score, member, ttl.
 * A board's previous member of the user (another time) is removed.
 */
const WRITE_USER = `${TIE_IN}
local current = redis.call('HGET', KEYS[1], ARGV[1])
if current then
  local sep = string.find(current, '|', 1, true)
  if sep and tonumber(string.sub(current, 1, sep - 1)) > tonumber(ARGV[2]) then return 0 end
end
for i = 2, #KEYS do
  local at = 4 + (i - 2) * 4
  local member = ARGV[at + 2]
  if current then
    local tie = tieIn(current, ARGV[at])
    if tie then
      local previous = tie .. ':' .. ARGV[1]
      if previous ~= member then redis.call('ZREM', KEYS[i], previous) end
    end
  end
  redis.call('ZADD', KEYS[i], ARGV[at + 1], member)
  local ttl = tonumber(ARGV[at + 3])
  if ttl > 0 and redis.call('TTL', KEYS[i]) < 0 then redis.call('EXPIRE', KEYS[i], ttl) end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1
`;

/** The top of a board with each user's users-hash value, in one round trip; nil when the board is not built. */
const READ_TOP = `
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
local top = redis.call('ZRANGE', KEYS[2], 0, tonumber(ARGV[1]) - 1, 'WITHSCORES')
if #top == 0 then return {top, {}} end
local ids = {}
for i = 1, #top, 2 do ids[#ids + 1] = string.sub(top[i], ${TIE_DIGITS + 2}) end
return {top, redis.call('HMGET', KEYS[3], unpack(ids))}
`;

/**
 * Users' ranks (0-based), scores and users-hash values, flat: id, rank,
 * score, value for each user on the board (users not on it are left out);
 * nil when the board is not built. ARGV: the board's period field ('' for
 * ALL_TIME), then the user ids. The users hash gives each user's member.
 */
const READ_ENTRIES = `${TIE_IN}
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
local out = {}
for i = 2, #ARGV do
  local meta = redis.call('HGET', KEYS[3], ARGV[i])
  local tie = meta and tieIn(meta, ARGV[1])
  if tie then
    local member = tie .. ':' .. ARGV[i]
    local rank = redis.call('ZRANK', KEYS[2], member)
    if rank then
      out[#out + 1] = ARGV[i]
      out[#out + 1] = rank
      out[#out + 1] = redis.call('ZSCORE', KEYS[2], member)
      out[#out + 1] = meta
    end
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

/**
 * A user's value in the users hash: "<seq>|<coins>|<all-time time>", then
 * "|<period field>=<time>" for each period board whose time differs from
 * the all-time one (usually only past periods'): what the write script
 * needs to find the member it replaces, and readers by user id to find it.
 */
export function userMeta(seq: number, coins: number, allTimeTie: string, periodTies: Array<[field: string, tie: string]> = []): string {
  let meta = `${seq}|${coins}|${allTimeTie}`;
  for (const [field, tie] of periodTies) if (tie !== allTimeTie) meta += `|${field}=${tie}`;
  return meta;
}

function coinsFrom(meta: string | null | undefined): number {
  if (!meta) return 0;
  const [, coins] = meta.split('|', 2);
  return Number(coins) || 0;
}

/** The period field of the board a read goes to ('' for ALL_TIME): where the users hash keeps its time. */
function boardField(period: Period, now: Date): string {
  return period === 'ALL_TIME' ? '' : periodField(period, periodKey(period, now));
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

  /** Every key of the app's boards, of any layout, starts with this. */
  appPrefix(appId: string): string {
    return `${this.prefix}lb:${appId}:`;
  }

  boardKey(appId: string, period: Period, key: string): string {
    const layout = `${this.appPrefix(appId)}${LAYOUT}`;
    return period === 'ALL_TIME' ? `${layout}ALL_TIME` : `${layout}${period}:${key}`;
  }

  usersKey = (appId: string) => `${this.appPrefix(appId)}${LAYOUT}users`;
  readyKey = (appId: string) => `${this.appPrefix(appId)}${LAYOUT}ready`;
  private lockKey = (appId: string) => `${this.appPrefix(appId)}rebuilding`;

  /**
   * The arguments that put a user's balance on every board it belongs to:
   * ALL_TIME, and each day/week/month the balance still holds XP for.
   */
  userWrite(appId: string, userId: string, state: BalanceState, now = new Date()): Array<string | number> {
    const allTimeTie = tieOf(state.xpChangedAt);
    const keys = [this.usersKey(appId), this.boardKey(appId, 'ALL_TIME', '')];
    const boards: Array<string | number> = ['', boardScore(state.xp), boardMember(userId, state.xpChangedAt), 0];
    const periodTies: Array<[string, string]> = [];
    for (const [field, value] of Object.entries(state.periods)) {
      const period = FIELD_PERIOD[field[0]];
      if (!period) continue;
      const key = field.slice(1);
      const { end } = periodBounds(period, value.at);
      const ttl = Math.ceil((end.getTime() - now.getTime()) / 1000) + KEEP_AFTER_END_S[period];
      if (ttl <= 0) continue;
      keys.push(this.boardKey(appId, period, key));
      boards.push(field, boardScore(value.xp), boardMember(userId, value.at), ttl);
      periodTies.push([field, tieOf(value.at)]);
    }
    return [keys.length, ...keys, userId, state.seq, userMeta(state.seq, state.coins, allTimeTie, periodTies), ...boards];
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
      entries.push({ rank: i / 2 + 1, userId: userIdOfMember(flat[i]), xp: xpOfScore(flat[i + 1]), coins: coinsFrom(metas[i / 2]) });
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
    const reply = await this.redis.lbReadEntries(
      this.readyKey(appId),
      this.boardKey(appId, period, periodKey(period, now)),
      this.usersKey(appId),
      boardField(period, now),
      ...userIds,
    );
    if (!reply) return null;
    const entries: BoardEntry[] = [];
    for (let i = 0; i < reply.length; i += 4) {
      entries.push({ rank: Number(reply[i + 1]) + 1, userId: String(reply[i]), xp: xpOfScore(reply[i + 2]), coins: coinsFrom(String(reply[i + 3])) });
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

  /**
   * Removes the app's boards (not the lock): reads answer "not built" until
   * markBuilt. Only this layout's: replicas of the release before may still
   * read theirs during a rolling upgrade.
   */
  async clear(appId: string): Promise<void> {
    await this.redis.del(this.readyKey(appId));
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${this.appPrefix(appId)}${LAYOUT}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await this.redis.unlink(...keys);
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
