import { PeriodicTask } from '@ris/service-runtime';
import type { Logger } from '@ris/logging';
import type { Page, PageQuery } from '@ris/mongo';
import type { BalanceDoc } from '../ledger/balance.model';
import type { BalanceRepository, BoardField } from '../ledger/balance.repository';
import { snapshotId } from '../events/derived-ids';
import type { LeaderboardSnapshotDoc } from './leaderboard-snapshot.model';
import type { LeaderboardSnapshotRepository } from './leaderboard-snapshot.repository';
import { TIMED_PERIODS, periodField, previousPeriod, type Period } from './period-keys';
import type { SnapshotRunRepository } from './snapshot-run.repository';

interface BoardToSnapshot {
  period: Period;
  periodKey: string;
  startsAt: Date | null;
  endsAt: Date;
  /** The balance's period field the board ranks by (its XP and when it was reached); null: ALL_TIME, the balance's own. */
  field: BoardField;
}

/** The boards whose period ended most recently before `now` (ALL_TIME: at each day's end). */
export function boardsEndedBefore(now: Date): BoardToSnapshot[] {
  const boards: BoardToSnapshot[] = TIMED_PERIODS.map((period) => {
    const previous = previousPeriod(period, now);
    return { period, periodKey: previous.key, startsAt: previous.start, endsAt: previous.end, field: periodField(period, previous.key) };
  });
  const day = previousPeriod('DAILY', now);
  boards.push({ period: 'ALL_TIME', periodKey: day.key, startsAt: null, endsAt: day.end, field: null });
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
  private task?: PeriodicTask;

  constructor(
    private readonly balances: BalanceRepository,
    private readonly snapshots: LeaderboardSnapshotRepository,
    private readonly runs: SnapshotRunRepository,
    private readonly logger: Logger,
    private readonly size = 100,
  ) {}

  /** Snapshots every board whose period ended before `now` and is not snapshotted yet. */
  async takeDue(now = new Date()): Promise<number> {
    let taken = 0;
    for (const board of boardsEndedBefore(now)) {
      const runId = `${board.period}:${board.periodKey}`;
      if (await this.runs.done(runId)) continue;
      const apps = await this.balances.appsOnBoard(board.field);
      for (const appId of apps) taken += (await this.snapshot(appId, board, now)) ? 1 : 0;
      await this.runs.record(runId, apps.length);
    }
    return taken;
  }

  private async snapshot(appId: string, board: BoardToSnapshot, now: Date): Promise<boolean> {
    const id = snapshotId(appId, board.period, board.periodKey);
    if (await this.snapshots.has(appId, id)) return false;
    const { field } = board;
    const [top, totalUsers] = await Promise.all([this.balances.topOfBoard(appId, field, this.size), this.balances.countOnBoard(appId, field)]);
    const xpOf = (doc: BalanceDoc) => (field === null ? doc.xp : (doc.periods[field]?.xp ?? 0));
    return this.snapshots.record({
      _id: id,
      appId,
      period: board.period,
      periodKey: board.periodKey,
      startsAt: board.startsAt,
      endsAt: board.endsAt,
      takenAt: now,
      entries: top.map((doc, i) => ({ rank: i + 1, userId: doc.userId, xp: xpOf(doc), coins: doc.coins })),
      totalUsers,
    });
  }

  list(appId: string, page: PageQuery, period?: Period): Promise<Page<LeaderboardSnapshotDoc>> {
    return this.snapshots.page(appId, page, period);
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
