import type { ApiRouter } from '../http/api-router';
import {
  LeaderboardEntry,
  LeaderboardPeriods,
  LeaderboardSnapshot,
  RefreshRun,
  leaderboardEntryJson,
  refreshRunJson,
  snapshotJson,
} from '../mappers/incentive-achievement.mapper';
import { Pagination, id, pageQuery, pageRequest, pagination } from '../openapi/common-schemas';
import { intFromQuery } from '../openapi/query-values';
import { amount, userId, xpAmount } from '../openapi/incentive-schemas';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';

const period = LeaderboardPeriods.schema
  .default('ALL_TIME')
  .openapi({ description: 'ALL_TIME, or the current UTC day, ISO week or month' });

const limit = intFromQuery('limit', 1, 100, 10);

const unavailable = 'Redis is unavailable or the board is being rebuilt (503 UNAVAILABLE, retry): never stale data';

export function incentiveLeaderboardRoutes(api: ApiRouter, clients: ServiceClients): void {
  api.route({
    method: 'get',
    path: '/incentives/leaderboard',
    tag: 'Incentive leaderboard',
    summary: 'The top of a leaderboard, by XP',
    description: `A JSON array ordered by rank. ${unavailable}.`,
    query: z.object({ limit, period }),
    responses: { 200: { description: 'Entries by rank', schema: z.array(LeaderboardEntry.schema) } },
    handle: async ({ appId, query }) => {
      const entries = await clients.leaderboardReads.top(appId, LeaderboardPeriods.value(query.period), query.limit);
      return { status: 200, body: entries.map(leaderboardEntryJson) };
    },
  });

  api.route({
    method: 'post',
    path: '/incentives/leaderboard',
    tag: 'Incentive leaderboard',
    summary: 'Record an externally computed score',
    description:
      "Sets the user's XP (and coins, when sent) to these totals. The change is a ledger entry (reason SCORE_SET), so balances, " +
      'transactions and every board agree; reaching a level this way grants it. Returns the user\'s all-time entry.',
    body: z.object({ userId: userId(), xp: xpAmount, coins: amount.optional() }).openapi('RecordScoreRequest'),
    responses: {
      200: {
        description: "The user's all-time entry",
        schema: LeaderboardEntry.schema,
        links: {
          GetLeaderboardEntry: { method: 'get', path: '/incentives/leaderboard/:userId', parameters: { userId: '$response.body#/userId' } },
          GetBalance: { method: 'get', path: '/incentives/balances/:userId', parameters: { userId: '$response.body#/userId' } },
        },
      },
    },
    handle: async ({ appId, body }) => {
      const { entry } = await clients.incentive.setLeaderboardScore({ appId, userId: body.userId, xp: body.xp, coins: body.coins });
      return { status: 200, body: leaderboardEntryJson(entry!) };
    },
  });

  api.route({
    method: 'post',
    path: '/incentives/leaderboard/refresh',
    tag: 'Incentive leaderboard',
    summary: 'Rebuild the leaderboards from the ledger',
    description: 'Rebuilds every board of the app in Redis from MongoDB (the source of truth). Reads answer 503 while it runs.',
    responses: {
      200: {
        description: 'Rebuilt',
        schema: z.object({ refreshed: z.literal(true), users: z.number().int(), durationMs: z.number().int() }).openapi('LeaderboardRefreshResponse'),
      },
    },
    handle: async ({ appId }) => {
      const res = await clients.incentive.refreshLeaderboard({ appId }, { timeoutMs: 120_000 });
      return { status: 200, body: { refreshed: true, users: res.users, durationMs: res.durationMs } };
    },
  });

  const RunEnvelope = z.object({ run: RefreshRun.schema });
  const runLinks = {
    GetLeaderboardRefreshRun: { method: 'get', path: '/incentives/leaderboard/refresh-runs/:runId', parameters: { runId: '$response.body#/run/id' } },
  } as const;

  api.route({
    method: 'post',
    path: '/incentives/leaderboard/refresh-runs',
    tag: 'Incentive leaderboard',
    summary: 'Rebuild the leaderboards in the background, with progress',
    description:
      'The rebuild of POST /incentives/leaderboard/refresh, started in the background: 202 with the run, whose progress ' +
      '(usersDone of usersTotal) GET /incentives/leaderboard/refresh-runs/{runId} answers while it runs. One run per app at a time: while ' +
      'one runs, the answer is 200 with that run. Reads of the boards answer 503 while it rebuilds them.',
    responses: {
      202: { description: 'Started', schema: RunEnvelope, links: runLinks },
      200: { description: 'A run of the app is already running (or this Idempotency-Key started one): that run', schema: RunEnvelope, links: runLinks },
    },
    handle: async ({ appId, operationKey }) => {
      const { run, started } = await clients.incentive.startLeaderboardRefresh({ appId, operationKey });
      return { status: started ? 202 : 200, body: { run: refreshRunJson(run!) } };
    },
  });

  // Before /:userId, so "refresh-runs" is not read as a user id.
  api.route({
    method: 'get',
    path: '/incentives/leaderboard/refresh-runs',
    tag: 'Incentive leaderboard',
    summary: 'Leaderboard refresh runs, newest first',
    query: z.object(pageQuery),
    responses: { 200: { description: 'A page of runs', schema: z.object({ runs: z.array(RefreshRun.schema), pagination: Pagination }) } },
    handle: async ({ appId, query }) => {
      const res = await clients.incentive.listLeaderboardRefreshRuns({ appId, page: pageRequest(query) });
      return { status: 200, body: { runs: res.runs.map(refreshRunJson), pagination: pagination(query, res.page) } };
    },
  });

  api.route({
    method: 'get',
    path: '/incentives/leaderboard/refresh-runs/:runId',
    tag: 'Incentive leaderboard',
    summary: 'A leaderboard refresh run and its progress',
    params: z.object({ runId: id('Refresh run id') }),
    responses: { 200: { description: 'The run', schema: RunEnvelope } },
    errors: [404],
    handle: async ({ appId, params }) => {
      const { run } = await clients.incentive.getLeaderboardRefreshRun({ appId, runId: params.runId });
      return { status: 200, body: { run: refreshRunJson(run!) } };
    },
  });

  // Before /:userId, so "snapshots" is not read as a user id.
  api.route({
    method: 'get',
    path: '/incentives/leaderboard/snapshots',
    tag: 'Incentive leaderboard',
    summary: 'Snapshots of past boards, newest first',
    description:
      'Each day/week/month board is snapshotted (top 100) when its period ends, and the all-time board at the end of each day.',
    query: z.object({ ...pageQuery, period: LeaderboardPeriods.schema.optional() }),
    responses: { 200: { description: 'A page of snapshots', schema: z.object({ snapshots: z.array(LeaderboardSnapshot.schema), pagination: Pagination }) } },
    handle: async ({ appId, query }) => {
      const res = await clients.incentive.listLeaderboardSnapshots({
        appId,
        page: pageRequest(query),
        period: LeaderboardPeriods.value(query.period),
      });
      return {
        status: 200,
        body: { snapshots: res.snapshots.map(snapshotJson), pagination: pagination(query, res.page) },
      };
    },
  });

  api.route({
    method: 'get',
    path: '/incentives/leaderboard/:userId',
    tag: 'Incentive leaderboard',
    summary: "One user's entry, with their rank even outside the top",
    description: `404 when the user is not on that board. ${unavailable}. (A user id of "snapshots" is shadowed by the list above.)`,
    params: z.object({ userId: userId() }),
    query: z.object({ period }),
    responses: { 200: { description: 'The entry', schema: LeaderboardEntry.schema } },
    errors: [404],
    handle: async ({ appId, params, query }) => {
      const entry = await clients.leaderboardReads.entry(appId, LeaderboardPeriods.value(query.period), params.userId);
      return { status: 200, body: leaderboardEntryJson(entry) };
    },
  });
}
