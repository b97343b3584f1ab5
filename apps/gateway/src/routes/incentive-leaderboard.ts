import type { ApiRouter } from '../http/api-router';
import { LeaderboardEntry, LeaderboardPeriods, LeaderboardSnapshot, leaderboardEntryJson, snapshotJson } from '../mappers/incentive-achievement.mapper';
import { Pagination, pageQuery, pageRequest, pagination } from '../openapi/common-schemas';
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
