import type { ApiRouter } from '../http/api-router';
import { ActionTimeseries, EngineTimeseries, actionTimeseriesJson, engineTimeseriesJson } from '../mappers/incentive-series.mapper';
import { definitionKey } from '../openapi/incentive-schemas';
import { SERIES_RULES, seriesQuery, seriesRequest } from '../openapi/series-query';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';

/**
 * The incentive engine's figures over time: counters the incentive service
 * keeps on write per UTC hour and day (apps/incentive-service/src/series/incentive-series.ts),
 * never a scan of events or of the ledger, so a read costs the same for an
 * app of ten events or of millions.
 */
export function incentiveStatsRoutes(api: ApiRouter, clients: ServiceClients): void {
  api.route({
    method: 'get',
    path: '/incentives/actions/:key/timeseries',
    tag: 'Incentive actions',
    summary: 'How often an action was performed and what it paid out, per hour or day',
    description: `Events of the action (rewarded or not) and the coins, XP and tokens they paid out, counted on write per UTC hour and day. ${SERIES_RULES}`,
    params: z.object({ key: definitionKey('Action key') }),
    query: z.object(seriesQuery),
    responses: { 200: { description: 'The series', schema: ActionTimeseries.schema } },
    errors: [404, 422],
    handle: async ({ appId, params, query }) => {
      const { intervalName, ...range } = seriesRequest(query);
      const series = await clients.incentive.getActionTimeseries({ appId, actionKey: params.key, ...range });
      return { status: 200, body: actionTimeseriesJson(params.key, intervalName, series) };
    },
  });

  api.route({
    method: 'get',
    path: '/incentives/stats/timeseries',
    tag: 'Incentive stats',
    summary: "The engine's events, active users, coins, tokens and XP issued and redeemed, and redemptions, per hour or day",
    description:
      'Counted on write per UTC hour and day (each figure is defined in the schema), with their totals over the range: the sums of ' +
      `the buckets, but activeUsers, the distinct users over the whole range. ${SERIES_RULES}`,
    query: z.object(seriesQuery),
    responses: { 200: { description: 'The series and its totals', schema: EngineTimeseries.schema } },
    errors: [422],
    handle: async ({ appId, query }) => {
      const { intervalName, ...range } = seriesRequest(query);
      const series = await clients.incentive.getEngineTimeseries({ appId, ...range });
      return { status: 200, body: engineTimeseriesJson(intervalName, series) };
    },
  });
}
