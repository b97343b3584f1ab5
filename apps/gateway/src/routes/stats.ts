import type { ApiRouter } from '../http/api-router';
import { campaignStatsJson, userStatsJson } from '../mappers/stats.mapper';
import { id } from '../openapi/common-schemas';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';

const CampaignStats = z
  .object({
    campaignId: z.string(),
    totalReferrals: z.number().int(),
    totalClicks: z.number().int(),
    totalConversions: z.number().int().openapi({ description: 'Referees converted (flagged conversions included)' }),
    completedReferrals: z.number().int().openapi({ description: 'Referrals with at least one conversion' }),
    conversionRate: z.number().openapi({
      description: 'completedReferrals / totalReferrals × 100, two decimals: the percentage of referrals that converted; 0 without referrals',
    }),
    totalRewardValue: z.number().openapi({ description: "Sum of the campaign's rewards that are not CANCELLED (pending, approved and paid), every level and side" }),
  })
  .openapi('CampaignStats');

const UserStats = z
  .object({
    userId: z.string(),
    campaignId: z.string().nullable().openapi({ description: 'null: every campaign of the app' }),
    referrals: z.number().int().openapi({ description: 'Referral codes the user owns' }),
    clicks: z.number().int().openapi({ description: "Clicks on the user's codes" }),
    conversions: z.number().int().openapi({ description: "Referees who converted through the user's codes (level 1)" }),
    rewardsEarned: z.number().openapi({ description: 'APPROVED and PAID rewards, both sides' }),
    rewardsPending: z.number().openapi({ description: 'Rewards held PENDING (fraud review, deferred check), both sides' }),
    byLevel: z.array(
      z.object({
        level: z.number().int(),
        conversions: z.number().int().openapi({ description: 'Conversions credited to the user at this level' }),
        rewardsEarned: z.number(),
        rewardsPending: z.number(),
      }),
    ),
    refereeRewards: z.object({ earned: z.number(), pending: z.number() }).openapi({ description: 'Rewards the user got as a referee' }),
  })
  .openapi('UserStats');

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
    responses: { 200: { description: 'The campaign statistics', schema: CampaignStats } },
    errors: [404],
    handle: async ({ appId, query }) => {
      const counts = await clients.referral.getCampaignStats({ appId, campaignId: query.campaignId });
      return { status: 200, body: campaignStatsJson(query.campaignId, counts) };
    },
  });

  api.route({
    method: 'get',
    path: '/users/:userId/stats',
    tag: 'Stats',
    summary: "A user's referral statistics: referrals, clicks, conversions, rewards earned and pending, by level",
    params: z.object({ userId: id('User id') }),
    query: z.object({ campaignId: id('One campaign; every campaign when absent').optional() }),
    responses: { 200: { description: "The user's statistics (zeros for a user with no activity)", schema: UserStats } },
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
