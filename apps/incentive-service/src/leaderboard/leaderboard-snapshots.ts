import { PeriodicTask } from '@ris/service-runtime';
import type { Connection, Model } from 'mongoose';
import type { Logger } from '@ris/logging';
import { AppScoped, isDuplicateKeyError, type Page, type PageQuery } from '@ris/mongo';
import { balanceModel, type BalanceDoc } from '../ledger/balance.model';
import { snapshotId } from '../events/derived-ids';
import { leaderboardSnapshotModel, type LeaderboardSnapshotDoc } from './leaderboard-snapshot.model';
import { TIMED_PERIODS, periodField, previousPeriod, type Period } from './period-keys';
import { snapshotRunModel, type SnapshotRunDoc } from './snapshot-run.model';

interface BoardToSnapshot {
  period: Period;
  periodKey: string;
  startsAt: Date | null;
  endsAt: Date;
  /** The balance fields the board ranks by: XP and when it was reached. */
  xpPath: string;
  atPath: string;
  /** Balances on this board. */
  filter: Record<string, unknown>;
}

/** The boards whose period ended most recently before `now` (ALL_TIME: at each day's end). */
export function boardsEndedBefore(now: Date): BoardToSnapshot[] {
  const boards: BoardToSnapshot[] = TIMED_PERIODS.map((period) => {
    const previous = previousPeriod(period, now);
    const field = `periods.${periodField(period, previous.key)}`;
    return {
      period,
      periodKey: previous.key,
      startsAt: previous.start,
      endsAt: previous.end,
      xpPath: `${field}.xp`,
      atPath: `${field}.at`,
      filter: { [field]: { $exists: true } },
    };
  });
  const day = previousPeriod('DAILY', now);
  boards.push({ period: 'ALL_TIME', periodKey: day.key, startsAt: null, endsAt: day.end, xpPath: 'xp', atPath: 'xpChangedAt', filter: {} });
  return boards;
}

/**
 * A snapshot of each board when its period ends, in MongoDB: the top
 * `size` entries, ranked like the live board (XP, then who reached it
 * first). Taken from the balances (the source of truth), not from Redis,
 * so it is right even after a Redis outage. A pass runs every minute on
 * every replica; snapshot ids are derived from (app, period, key), so each
 * is stored once.
 */
export class LeaderboardSnapshots {
  private readonly balances: Model<BalanceDoc>;
  private readonly snapshots: AppScoped<LeaderboardSnapshotDoc>;
  private readonly runs: Model<SnapshotRunDoc>;
  private task?: PeriodicTask;

  constructor(
    db: Connection,
    private readonly logger: Logger,
    private readonly size = 100,
  ) {
    this.balances = balanceModel(db);
    this.snapshots = new AppScoped(leaderboardSnapshotModel(db));
    this.runs = snapshotRunModel(db);
  }

  /** Snapshots every board whose period ended before `now` and is not snapshotted yet. */
  async takeDue(now = new Date()): Promise<number> {
    let taken = 0;
    for (const board of boardsEndedBefore(now)) {
      const runId = `${board.period}:${board.periodKey}`;
      if (await this.runs.exists({ _id: runId }).exec()) continue;
      const apps = (await this.balances.distinct('appId', board.filter).exec()) as string[];
      for (const appId of apps) taken += (await this.snapshot(appId, board, now)) ? 1 : 0;
      try {
        await this.runs.create({ _id: runId, finishedAt: new Date(), apps: apps.length });
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
    }
    return taken;
  }

  private async snapshot(appId: string, board: BoardToSnapshot, now: Date): Promise<boolean> {
    const id = snapshotId(appId, board.period, board.periodKey);
    if (await this.snapshots.findOne(appId, { _id: id })) return false;
    const filter = { ...board.filter, appId };
    const [top, totalUsers] = await Promise.all([
      this.balances
        .find(filter)
        .sort({ [board.xpPath]: -1, [board.atPath]: 1, userId: 1 })
        .limit(this.size)
        .lean<BalanceDoc[]>()
        .exec(),
      this.balances.countDocuments(filter).exec(),
    ]);
    const xpOf = (doc: BalanceDoc) =>
      board.period === 'ALL_TIME' ? doc.xp : (doc.periods[board.xpPath.split('.')[1]]?.xp ?? 0);
    try {
      await this.snapshots.create(appId, {
        _id: id,
        period: board.period,
        periodKey: board.periodKey,
        startsAt: board.startsAt,
        endsAt: board.endsAt,
        takenAt: now,
        entries: top.map((doc, i) => ({ rank: i + 1, userId: doc.userId, xp: xpOf(doc), coins: doc.coins })),
        totalUsers,
      });
      return true;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }

  list(appId: string, page: PageQuery, period?: Period): Promise<Page<LeaderboardSnapshotDoc>> {
    return this.snapshots.page(appId, period ? { period } : {}, { endsAt: -1, period: 1 }, page);
  }

  /** Takes the snapshots that are due now, then every intervalMs. */
  start(intervalMs = 60_000): void {
    this.task ??= new PeriodicTask(
      async () => {
        const taken = await this.takeDue();
        if (taken) this.logger.info({ taken }, 'leaderboard snapshots taken');
      },
      { intervalMs, runAtStart: true, onError: (err) => this.logger.warn({ err }, 'leaderboard snapshot pass failed; will retry') },
    );
    this.task.start();
  }

  async stop(): Promise<void> {
    await this.task?.stop();
  }
}
