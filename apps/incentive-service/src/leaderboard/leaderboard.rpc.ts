import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { ServiceImpl } from '@connectrpc/connect';
import {
  LeaderboardEntrySchema,
  LeaderboardPeriod,
  LeaderboardSnapshotSchema,
  RefreshRunSchema,
  RefreshRunStatus,
  enumName,
  enumValue,
  type IncentiveService,
  type LeaderboardEntry,
  type LeaderboardSnapshot,
  type RefreshRun,
} from '@ris/contracts';
import { pageFromRequest, pageReply, tenantOf, toItemError } from '@ris/rpc';
import { checkUserId } from '../definitions/definition-key';
import type { BalanceMovements } from '../ledger/balance-movements';
import type { Leaderboard } from './leaderboard';
import type { LeaderboardRefreshRuns } from './leaderboard-refresh-runs';
import type { LeaderboardSnapshotDoc } from './leaderboard-snapshot.model';
import type { LeaderboardSnapshots } from './leaderboard-snapshots';
import type { BoardEntry } from './leaderboard-store';
import { periodKey, type Period } from './period-keys';
import type { RefreshRunDoc } from './refresh-run.model';

export const leaderboardEntryMessage = (entry: BoardEntry): LeaderboardEntry => create(LeaderboardEntrySchema, entry);

export function snapshotMessage(doc: LeaderboardSnapshotDoc): LeaderboardSnapshot {
  return create(LeaderboardSnapshotSchema, {
    id: doc._id,
    period: enumValue(LeaderboardPeriod, doc.period),
    periodKey: doc.periodKey,
    startsAt: doc.startsAt ? timestampFromDate(doc.startsAt) : undefined,
    endsAt: timestampFromDate(doc.endsAt),
    takenAt: timestampFromDate(doc.takenAt),
    entries: doc.entries,
    totalUsers: doc.totalUsers,
  });
}

export function refreshRunMessage(run: RefreshRunDoc): RefreshRun {
  return create(RefreshRunSchema, {
    id: run._id,
    status: enumValue(RefreshRunStatus, run.status),
    usersDone: run.usersDone,
    usersTotal: run.usersTotal,
    startedAt: timestampFromDate(run.startedAt),
    finishedAt: run.finishedAt ? timestampFromDate(run.finishedAt) : undefined,
    durationMs: run.durationMs ?? undefined,
    error: run.error ?? undefined,
  });
}

const period = (p: LeaderboardPeriod) => (enumName(LeaderboardPeriod, p) as Period | undefined) ?? 'ALL_TIME';

type LeaderboardCalls = Pick<
  ServiceImpl<typeof IncentiveService>,
  | 'getLeaderboard'
  | 'getLeaderboardEntry'
  | 'getLeaderboardEntries'
  | 'setLeaderboardScore'
  | 'refreshLeaderboard'
  | 'startLeaderboardRefresh'
  | 'getLeaderboardRefreshRun'
  | 'listLeaderboardRefreshRuns'
  | 'listLeaderboardSnapshots'
>;

/** The leaderboards at the edge: the live boards, recorded scores, their rebuilds and the period snapshots. */
export function leaderboardCalls(
  leaderboard: Leaderboard,
  movements: BalanceMovements,
  refreshRuns: LeaderboardRefreshRuns,
  snapshots: LeaderboardSnapshots,
): LeaderboardCalls {
  return {
    async getLeaderboard(req, ctx) {
      const p = period(req.period);
      const entries = await leaderboard.top(tenantOf(ctx), p, req.limit || 10);
      return { entries: entries.map(leaderboardEntryMessage), periodKey: periodKey(p, new Date()) };
    },
    async getLeaderboardEntry(req, ctx) {
      const entry = await leaderboard.entry(tenantOf(ctx), period(req.period), checkUserId(req.userId));
      return { entry: leaderboardEntryMessage(entry) };
    },
    async getLeaderboardEntries(req, ctx) {
      const entries = await leaderboard.entries(tenantOf(ctx), period(req.period), req.userIds.map((userId) => checkUserId(userId, 'userIds')));
      return {
        outcomes: entries.map((entry) =>
          entry instanceof Error
            ? { outcome: { case: 'error' as const, value: toItemError(entry) } }
            : { outcome: { case: 'entry' as const, value: leaderboardEntryMessage(entry) } },
        ),
      };
    },
    async setLeaderboardScore(req, ctx) {
      const appId = tenantOf(ctx);
      const userId = checkUserId(req.userId);
      await movements.setScore(appId, { userId, xp: req.xp, coins: req.coins ?? null });
      return { entry: leaderboardEntryMessage(await leaderboard.entry(appId, 'ALL_TIME', userId)) };
    },
    async refreshLeaderboard(_req, ctx) {
      const started = Date.now();
      const users = await leaderboard.refresh(tenantOf(ctx));
      return { users, durationMs: Date.now() - started };
    },
    async startLeaderboardRefresh(req, ctx) {
      const { run, started } = await refreshRuns.start(tenantOf(ctx), req.operationKey);
      return { run: refreshRunMessage(run), started };
    },
    async getLeaderboardRefreshRun(req, ctx) {
      return { run: refreshRunMessage(await refreshRuns.get(tenantOf(ctx), req.runId)) };
    },
    async listLeaderboardRefreshRuns(req, ctx) {
      const page = await refreshRuns.list(tenantOf(ctx), pageFromRequest(req.page));
      return { runs: page.items.map(refreshRunMessage), page: pageReply(page) };
    },
    async listLeaderboardSnapshots(req, ctx) {
      const page = await snapshots.list(tenantOf(ctx), pageFromRequest(req.page), enumName(LeaderboardPeriod, req.period) as Period | undefined);
      return { snapshots: page.items.map(snapshotMessage), page: pageReply(page) };
    },
  };
}
