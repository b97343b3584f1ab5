import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { TimeseriesInterval, enumValue } from '@ris/contracts';
import type { ApiRouter } from '../http/api-router';
import { CampaignStats, CampaignTimeseries, UserStats, campaignStatsJson, timeseriesJson, userStatsJson } from '../mappers/stats.mapper';
import { dateTime, id } from '../openapi/common-schemas';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';

const HOUR_MS = 3_600_000;
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
      'referrals or of millions. Buckets are UTC hours or UTC days (00:00Z to 24:00Z), whatever the offset the range is written with; ' +
      'every bucket that overlaps [from, to) is answered, oldest first, zeros included. A range holds at most 744 hourly buckets ' +
      '(31 days) or 366 daily ones: a longer one, or a `to` not after `from`, is 422 INVALID_RANGE (so are ranges outside the years ' +
      '0001 to 9999 UTC). Without `to`, now; without `from`, 24 hours (hour) or 30 days (day) before `to`.',
    query: z.object({
      campaignId: id('Campaign id (required)'),
      interval: z.enum(['hour', 'day']).optional().openapi({ description: 'Bucket size; day when absent' }),
      from: dateTime('Start of the range (inclusive), rounded down to its UTC hour or day').optional(),
      to: dateTime('End of the range (exclusive)').optional(),
    }),
    responses: { 200: { description: 'The series', schema: CampaignTimeseries.schema } },
    errors: [404, 422],
    handle: async ({ appId, query }) => {
      const interval = query.interval ?? 'day';
      const to = query.to ? new Date(query.to) : new Date();
      const from = query.from ? new Date(query.from) : new Date(to.getTime() - (interval === 'hour' ? 24 * HOUR_MS : 30 * DAY_MS));
      const series = await clients.referral.getCampaignTimeseries({
        appId,
        campaignId: query.campaignId,
        interval: enumValue(TimeseriesInterval, interval.toUpperCase()),
        from: timestampFromDate(from),
        to: timestampFromDate(to),
      });
      return { status: 200, body: timeseriesJson(query.campaignId, interval, series) };
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
