import type { ApiRouter } from '../http/api-router';
import { CampaignStats, CampaignTimeseries, UserStats, campaignStatsJson, timeseriesJson, userStatsJson } from '../mappers/stats.mapper';
import { id } from '../openapi/common-schemas';
import { SERIES_RULES, seriesQuery, seriesRequest } from '../openapi/series-query';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';

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
    query: z.object({ campaignId: id('Campaign id (required)'), ...seriesQuery }),
    responses: { 200: { description: 'The series', schema: CampaignTimeseries.schema } },
    errors: [404, 422],
    handle: async ({ appId, query }) => {
      const { intervalName, ...range } = seriesRequest(query);
      const series = await clients.referral.getCampaignTimeseries({ appId, campaignId: query.campaignId, ...range });
      return { status: 200, body: timeseriesJson(query.campaignId, intervalName, series) };
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
