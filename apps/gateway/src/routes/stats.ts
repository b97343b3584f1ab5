import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { TopReferrersOrder, enumValue } from '@ris/contracts';
import type { ApiRouter } from '../http/api-router';
import { Campaign, campaignJson, campaignListFilters, campaignListRequest } from '../mappers/campaign.mapper';
import { CampaignStats, CampaignTimeseries, StatsFigures, UserStats, campaignStatsJson, timeseriesJson, userStatsJson } from '../mappers/stats.mapper';
import { Pagination, dateTime, id, pageQuery, pagination, timestamp } from '../openapi/common-schemas';
import { intFromQuery } from '../openapi/query-values';
import { SERIES_RULES, seriesQuery, seriesRequest } from '../openapi/series-query';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';

const DAY_MS = 86_400_000;

/**
 * Both read pre-aggregated documents (counters kept on write), never
 * referrals, clicks or conversions: the cost does not grow with the
 * campaign. GET /stats is one document of the referral service (which also
 * counts the value of the rewards it has the reward service create and
 * cancel); a user's stats add their reward totals from the reward service.
 */
export function statsRoutes(api: ApiRouter, clients: ServiceClients): void {
  api.route({
    method: 'get',
    path: '/stats',
    tag: 'Stats',
    summary: "A campaign's referral statistics",
    query: z.object({ campaignId: id('Campaign id (required)') }),
    responses: { 200: { description: 'The campaign statistics', schema: CampaignStats.schema } },
    errors: [404],
    handle: async ({ appId, query }) => {
      const counts = await clients.referral.getCampaignStats({ appId, campaignId: query.campaignId });
      return { status: 200, body: campaignStatsJson(query.campaignId, counts) };
    },
  });

  api.route({
    method: 'get',
    path: '/stats/timeseries',
    tag: 'Stats',
    summary: "A campaign's referrals, clicks, conversions and reward value per hour or day",
    description:
      'Counters kept on write per UTC hour and day, like the totals of GET /stats: the read costs the same for a campaign of ten ' +
      `referrals or of millions. ${SERIES_RULES}`,
    query: z.object({ campaignId: id('Campaign id; every campaign of the app, summed, when absent').optional(), ...seriesQuery }),
    responses: { 200: { description: 'The series', schema: CampaignTimeseries.schema } },
    errors: [404, 422],
    handle: async ({ appId, query }) => {
      const { intervalName, ...range } = seriesRequest(query);
      const series = await clients.referral.getCampaignTimeseries({ appId, campaignId: query.campaignId ?? '', ...range });
      return { status: 200, body: timeseriesJson(query.campaignId ?? null, intervalName, series) };
    },
  });

  api.route({
    method: 'get',
    path: '/stats/campaigns',
    tag: 'Stats',
    summary: "Every campaign's figures, and the app's totals",
    description:
      "A page of the app's campaigns (newest first, as GET /campaigns, with its status and effectiveStatus filters), each with the figures of GET /stats, " +
      'and `totals`: the same figures over every campaign of the app (whatever the filter). Counters kept on write: one document read a campaign.',
    query: z.object({ ...pageQuery, ...campaignListFilters }),
    responses: {
      200: {
        description: 'The campaigns with their figures, and the totals',
        schema: z
          .object({
            campaigns: z.array(z.object({ campaign: Campaign.schema, stats: StatsFigures.schema })),
            totals: StatsFigures.schema,
            pagination: Pagination,
          })
          .openapi('CampaignStatsPage'),
      },
    },
    handle: async ({ appId, query }) => {
      const res = await clients.referral.listCampaignStats({ appId, ...campaignListRequest(query) });
      return {
        status: 200,
        body: {
          campaigns: res.campaigns.map((row) => ({ campaign: campaignJson(row.campaign!), stats: StatsFigures.json(row.stats!) })),
          totals: StatsFigures.json(res.totals!),
          pagination: pagination(query, res.page),
        },
      };
    },
  });

  api.route({
    method: 'get',
    path: '/stats/top-referrers',
    tag: 'Stats',
    summary: 'The referrers with the most conversions, or the most reward value, in a period',
    description:
      'Summed from the conversions converted in [from, to) (without `to`, now; without `from`, 30 days before `to`; a `to` not after `from`, ' +
      'or a period of more than 366 days, is 422 INVALID_RANGE), ' +
      'of one campaign or every campaign: `conversions` are the level-1 conversions credited to the referrer, `rewardValue` their ' +
      "rewards of those conversions at every level. Rejected conversions count for nobody. Ties go to the other figure, then to the user id.",
    query: z.object({
      campaignId: id('Only this campaign').optional(),
      from: dateTime('Start of the period (inclusive)').optional(),
      to: dateTime('End of the period (exclusive)').optional(),
      by: z.enum(['CONVERSIONS', 'REWARD_VALUE']).optional().openapi({ description: 'The order; CONVERSIONS when absent' }),
      limit: intFromQuery('limit', 1, 100, 10),
    }),
    responses: {
      200: {
        description: 'The referrers, best first',
        schema: z
          .object({
            from: timestamp.openapi({ description: 'Start of the period summed' }),
            to: timestamp.openapi({ description: 'End of the period summed (exclusive)' }),
            referrers: z.array(
              z.object({ userId: z.string(), conversions: z.number().int(), rewardValue: z.number() }).openapi('TopReferrer'),
            ),
          })
          .openapi('TopReferrers'),
      },
    },
    errors: [422],
    handle: async ({ appId, query }) => {
      const to = query.to ? new Date(query.to) : new Date();
      const from = query.from ? new Date(query.from) : new Date(to.getTime() - 30 * DAY_MS);
      const { referrers } = await clients.referral.getTopReferrers({
        appId,
        campaignId: query.campaignId,
        from: timestampFromDate(from),
        to: timestampFromDate(to),
        order: enumValue(TopReferrersOrder, query.by ?? 'CONVERSIONS'),
        limit: query.limit,
      });
      return {
        status: 200,
        body: { from: from.toISOString(), to: to.toISOString(), referrers: referrers.map((r) => ({ userId: r.userId, conversions: r.conversions, rewardValue: r.rewardValue })) },
      };
    },
  });

  api.route({
    method: 'get',
    path: '/users/:userId/stats',
    tag: 'Stats',
    summary: "A user's referral statistics: referrals, clicks, conversions, rewards earned and pending, by level",
    params: z.object({ userId: id('User id') }),
    query: z.object({ campaignId: id('One campaign; every campaign when absent').optional() }),
    responses: { 200: { description: "The user's statistics (zeros for a user with no activity)", schema: UserStats.schema } },
    errors: [404],
    handle: async ({ appId, params, query }) => {
      const [counts, rewards] = await Promise.all([
        clients.referral.getUserStats({ appId, userId: params.userId, campaignId: query.campaignId }),
        clients.reward.getRewardStats({ appId, userId: params.userId, campaignId: query.campaignId }),
      ]);
      return { status: 200, body: userStatsJson(params.userId, query.campaignId ?? null, counts, rewards) };
    },
  });
}
