import { PeriodicTask } from '@ris/service-runtime';
import { randomUUID } from 'node:crypto';
import { invalid, isDomainError, notFound, unavailable, type DomainError } from '@ris/domain-errors';
import type { Logger } from '@ris/logging';
import type { BalanceState } from '../ledger/balance-fold';
import type { BalanceRepository } from '../ledger/balance.repository';
import type { BoardCatchUpRepository } from './board-catch-up.repository';
import { stateFromDoc } from '../ledger/ledger';
import type { BoardEntry, LeaderboardStore } from './leaderboard-store';
import type { Period } from './period-keys';

/** A read that finds the board unbuilt rebuilds it, waiting this long before answering 503. */
const READ_REBUILD_WAIT_MS = 2_000;
const REBUILD_LOCK_MS = 10 * 60_000;
const REBUILD_BATCH = 500;

/**
 * The real-time boards in Redis, kept from MongoDB:
 *
 * - Every balance change writes the user's scores in the same flow
 *   (the ledger's after-apply hook), versioned by the ledger seq.
 * - If Redis is down, the change still succeeds; the app is marked behind
 *   (in MongoDB and in this process), reads answer 503 instead of stale
 *   data, and the catch-up loop rebuilds the app's boards from MongoDB as
 *   soon as Redis answers again.
 * - A flushed Redis (no "ready" key) is rebuilt on the next read or by
 *   POST /incentives/leaderboard/refresh. Nothing is lost: balances hold
 *   all-time XP and XP per day/week/month.
 */
export class Leaderboard {
  /** Apps whose boards missed an update (this process saw it, or the catch-up loop read it). */
  private readonly behind = new Set<string>();
  private readonly rebuilds = new Map<string, Promise<number>>();
  private catchUpTask?: PeriodicTask;

  constructor(
    private readonly balances: BalanceRepository,
    private readonly catchUps: BoardCatchUpRepository,
    readonly store: LeaderboardStore,
    private readonly logger: Logger,
  ) {}

  /** The ledger's after-apply hook. Never fails the balance change. */
  async publish(appId: string, userId: string, state: BalanceState): Promise<void> {
    try {
      await this.store.writeUser(appId, userId, state);
    } catch (err) {
      await this.markBehind(appId, err);
    }
  }

  private async markBehind(appId: string, err: unknown): Promise<void> {
    if (!this.behind.has(appId)) this.logger.warn({ err: (err as Error).message, appId }, 'leaderboard write failed; the board will catch up from MongoDB');
    this.behind.add(appId);
    await this.catchUps.miss(appId);
  }

  private async serving<T>(appId: string, read: () => Promise<T | null>): Promise<T> {
    if (this.behind.has(appId)) throw unavailable('The leaderboard is catching up after a Redis outage; retry shortly.');
    try {
      const first = await read();
      if (first !== null) return first;
      await this.rebuildWithin(appId, READ_REBUILD_WAIT_MS);
      const second = await read();
      if (second === null) throw unavailable('The leaderboard is being rebuilt; retry shortly.');
      return second;
    } catch (err) {
      if (isDomainError(err)) throw err;
      throw unavailable('The leaderboard store (Redis) is unavailable; retry shortly.');
    }
  }

  top(appId: string, period: Period, limit: number): Promise<BoardEntry[]> {
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw invalid('limit must be from 1 to 100');
    return this.serving(appId, () => this.store.top(appId, period, limit));
  }

  /**
   * The entry of each of `userIds` (1..1000 of them), in order, read in one
   * go: a user not on the board gets the NotFound error `entry` throws.
   */
  async entries(appId: string, period: Period, userIds: string[]): Promise<Array<BoardEntry | DomainError>> {
    if (userIds.length < 1 || userIds.length > 1000) throw invalid('userIds must hold 1 to 1000 user ids');
    const found = await this.serving(appId, () => this.store.entries(appId, period, [...new Set(userIds)]));
    const byUser = new Map(found.map((entry) => [entry.userId, entry]));
    return userIds.map((userId) => byUser.get(userId) ?? notFound('Leaderboard entry', { userId, period }));
  }

  async entry(appId: string, period: Period, userId: string): Promise<BoardEntry> {
    const [entry] = await this.entries(appId, period, [userId]);
    if (isDomainError(entry)) throw entry;
    return entry;
  }

  private async rebuildWithin(appId: string, ms: number): Promise<void> {
    const rebuild = this.refresh(appId);
    const timedOut = Symbol('timeout');
    const outcome = await Promise.race([rebuild, new Promise((resolve) => setTimeout(() => resolve(timedOut), ms).unref())]);
    if (outcome === timedOut) {
      rebuild.catch(() => undefined);
      throw unavailable('The leaderboard is being rebuilt; retry shortly.');
    }
  }

  /**
   * Rebuilds the app's boards from MongoDB: clears them (reads answer 503
   * meanwhile), writes every balance, marks them built. Live writes during
   * the rebuild are kept: every write is versioned, so the rebuild never
   * puts an older score over a newer one. One rebuild per app at a time.
   */
  refresh(appId: string, progress?: (usersDone: number) => Promise<unknown>): Promise<number> {
    const running = this.rebuilds.get(appId);
    if (running) return running;
    const rebuild = this.rebuild(appId, progress).finally(() => this.rebuilds.delete(appId));
    this.rebuilds.set(appId, rebuild);
    return rebuild;
  }

  /** The users whose balances a rebuild writes (a refresh run's total). */
  userCount(appId: string): Promise<number> {
    return this.balances.count(appId);
  }

  /** `progress` hears the users written after each batch (a refresh run keeps it). */
  private async rebuild(appId: string, progress?: (usersDone: number) => Promise<unknown>): Promise<number> {
    const token = randomUUID();
    let locked: boolean;
    try {
      locked = await this.store.lock(appId, token, REBUILD_LOCK_MS);
    } catch {
      throw unavailable('The leaderboard store (Redis) is unavailable; retry shortly.');
    }
    if (!locked) throw unavailable('The leaderboard is being rebuilt by another replica; retry shortly.');
    try {
      const mark = await this.catchUps.ofApp(appId);
      await this.store.clear(appId);
      let users = 0;
      let batch: Array<{ userId: string; state: BalanceState }> = [];
      for await (const doc of this.balances.inIdOrder(appId)) {
        batch.push({ userId: doc.userId, state: stateFromDoc(doc) });
        if (batch.length >= REBUILD_BATCH) {
          await this.store.writeUsers(appId, batch);
          users += batch.length;
          batch = [];
          await progress?.(users);
        }
      }
      await this.store.writeUsers(appId, batch);
      users += batch.length;
      await progress?.(users);
      await this.store.markBuilt(appId);
      // Caught up, unless another write failed while this ran (misses moved).
      const cleared = mark ? await this.catchUps.clear(appId, mark.misses) : true;
      if (cleared) this.behind.delete(appId);
      return users;
    } catch (err) {
      if (isDomainError(err)) throw err;
      this.logger.warn({ err, appId }, 'leaderboard rebuild failed');
      throw unavailable('The leaderboard could not be rebuilt (Redis unavailable); retry shortly.');
    } finally {
      await this.store.unlock(appId, token).catch(() => undefined);
    }
  }

  /** Every few seconds: rebuild the boards of apps that missed updates, once Redis answers. */
  start(intervalMs = 2_000): void {
    this.catchUpTask ??= new PeriodicTask(() => this.catchUp(), {
      intervalMs,
      runAtStart: true,
      onError: (err) => this.logger.warn({ err }, 'leaderboard catch-up pass failed'),
    });
    this.catchUpTask.start();
  }

  async stop(): Promise<void> {
    await this.catchUpTask?.stop();
  }

  private async catchUp(): Promise<void> {
    const marks = await this.catchUps.marks(100);
    // What MongoDB says is behind, including marks other replicas made or cleared.
    this.behind.clear();
    for (const mark of marks) this.behind.add(mark.appId);
    if (marks.length === 0 || (await this.store.redis.ping().catch(() => null)) !== 'PONG') return;
    for (const mark of marks) {
      const users = await this.refresh(mark.appId).catch(() => null);
      if (users !== null) this.logger.info({ appId: mark.appId, users }, 'leaderboard caught up from MongoDB');
    }
  }
}
