import type {
  CampaignBucket,
  GetCampaignStatsResponse,
  GetCampaignTimeseriesResponse,
  GetRewardStatsResponse,
  GetUserStatsResponse,
  RewardAmounts,
} from '@ris/contracts';
import { timestamp } from '../openapi/common-schemas';
import { seriesBounds } from '../openapi/series-query';
import { z } from '../openapi/zod';
import { entity, from, time } from './entity';

const earned = (a: RewardAmounts | undefined) => (a ? a.approved + a.paid : 0);
const pending = (a: RewardAmounts | undefined) => a?.pending ?? 0;
/** Money as a JSON number without float noise (0.1 + 0.2). */
const money = (n: number) => Math.round(n * 100) / 100;
/** A percentage to two decimals, 0 without a base. */
const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 100);

type CampaignCounts = GetCampaignStatsResponse & { campaignId: string };

/**
 * The figures of GET /stats, one definition each (docs/api.md#stats), for
 * a campaign or summed over the app's campaigns. conversionRate is the
 * percentage of the referrals that converted at least once (0 without
 * referrals), to two decimals; a rejected conversion counts nowhere.
 */
const figureFields = {
  totalReferrals: z.number().int().openapi({ description: 'Referrals (codes) created' }),
  totalClicks: z.number().int(),
  totalConversions: z.number().int().openapi({ description: 'Referees converted: CONVERTED and FLAGGED (until decided); REJECTED ones are not counted' }),
  completedReferrals: z.number().int().openapi({ description: 'Referrals with at least one counted conversion' }),
  conversionRate: from(
    z.number().openapi({
      description: 'completedReferrals / totalReferrals × 100, two decimals: the percentage of referrals that converted; 0 without referrals',
    }),
    (s: GetCampaignStatsResponse) => percent(s.completedReferrals, s.totalReferrals),
  ),
  totalRewardValue: from(
    z.number().openapi({
      description:
        'Sum of the rewards that are not CANCELLED (pending, approved and paid), every level and side, conversions and purchases, net of what reversals took back (reduced, cancelled or owed back)',
    }),
    (s: GetCampaignStatsResponse) => money(s.totalRewardValue),
  ),
  totalReversals: z.number().int().openapi({ description: 'Reversals recorded (refunds, chargebacks, cancellations), of conversions and of purchases' }),
};

/** GET /stats: the referral service's campaign counters. */
export const CampaignStats = entity<CampaignCounts>()('CampaignStats', { campaignId: z.string(), ...figureFields });

/** The same figures without a campaign: one campaign's row, or every campaign's summed. */
export const StatsFigures = entity<GetCampaignStatsResponse>()('StatsFigures', figureFields);

type UserTotals = { userId: string; campaignId: string | null; counts: GetUserStatsResponse; rewards: GetRewardStatsResponse };

/** The levels of both services' answers, lowest first: the user's referral counters and reward totals merged by level. */
function byLevel({ counts, rewards }: UserTotals) {
  const levels = new Set([...counts.levels.map((l) => l.level), ...rewards.referrerLevels.map((l) => l.level)]);
  return [...levels]
    .sort((a, b) => a - b)
    .map((level) => {
      const amounts = rewards.referrerLevels.find((l) => l.level === level)?.amounts;
      return {
        level,
        conversions: counts.levels.find((l) => l.level === level)?.conversions ?? 0,
        rewardsEarned: money(earned(amounts)),
        rewardsPending: money(pending(amounts)),
      };
    });
}

/** GET /users/{userId}/stats: the user's referral counters and reward totals, merged by level. */
export const UserStats = entity<UserTotals>()('UserStats', {
  userId: z.string(),
  campaignId: z.string().nullable().openapi({ description: 'null: every campaign of the app' }),
  referrals: from(z.number().int().openapi({ description: 'Referral codes the user owns' }), (u: UserTotals) => u.counts.referrals),
  clicks: from(z.number().int().openapi({ description: "Clicks on the user's codes" }), (u: UserTotals) => u.counts.clicks),
  conversions: from(z.number().int().openapi({ description: "Referees who converted through the user's codes (level 1)" }), (u: UserTotals) => u.counts.conversions),
  rewardsEarned: from(z.number().openapi({ description: 'APPROVED and PAID rewards, both sides' }), (u: UserTotals) => money(earned(u.rewards.total))),
  rewardsPending: from(z.number().openapi({ description: 'Rewards held PENDING (fraud review, deferred check), both sides' }), (u: UserTotals) =>
    money(pending(u.rewards.total)),
  ),
  byLevel: from(
    z.array(
      z.object({
        level: z.number().int(),
        conversions: z.number().int().openapi({ description: 'Conversions credited to the user at this level' }),
        rewardsEarned: z.number(),
        rewardsPending: z.number(),
      }),
    ),
    byLevel,
  ),
  refereeRewards: from(z.object({ earned: z.number(), pending: z.number() }).openapi({ description: 'Rewards the user got as a referee' }), (u: UserTotals) => ({
    earned: money(earned(u.rewards.referee)),
    pending: money(pending(u.rewards.referee)),
  })),
});

const TimeseriesBucket = entity<CampaignBucket>()('TimeseriesBucket', {
  start: time(timestamp.openapi({ description: 'Start of the UTC hour or day' })),
  referrals: z.number().int().openapi({ description: 'Referrals created in the bucket' }),
  clicks: z.number().int(),
  conversions: z.number().int().openapi({ description: 'Referees converted in the bucket, counted as totalConversions (a rejected one leaves its bucket)' }),
  rewardValue: from(
    z.number().openapi({
      description:
        "Value of the rewards of the bucket's conversions and purchases that are not CANCELLED, net of what reversals took back (a cancelled or reversed reward leaves the bucket of its conversion)",
    }),
    (b: CampaignBucket) => money(b.rewardValue),
  ),
  reversals: z.number().int().openapi({ description: 'Reversals (refunds, chargebacks, cancellations) recorded in the bucket, at their own time' }),
  conversionRate: from(
    z.number().openapi({
      description:
        'Conversions per 100 clicks of the bucket (not GET /stats conversionRate, which is per referral): conversions / clicks × 100, two ' +
        'decimals; 0 without clicks. It can pass 100: a conversion counts when it happens, whether or not its click fell in the same bucket (or there was one)',
    }),
    (b: CampaignBucket) => percent(b.conversions, b.clicks),
  ),
});

type Series = GetCampaignTimeseriesResponse & { campaignId: string | null; interval: 'hour' | 'day' };

/** GET /stats/timeseries: the referral service's buckets; each bucket's conversionRate is its conversions per click. */
export const CampaignTimeseries = entity<Series>()('CampaignTimeseries', {
  campaignId: z.string().nullable().openapi({ description: 'null: every campaign of the app, summed' }),
  interval: z.enum(['hour', 'day']),
  from: time(seriesBounds.from),
  to: time(seriesBounds.to),
  buckets: from(z.array(TimeseriesBucket.schema).openapi({ description: 'Every bucket of the range, oldest first, zeros included' }), (s: Series) =>
    s.buckets.map(TimeseriesBucket.json),
  ),
});

export const campaignStatsJson = (campaignId: string, counts: GetCampaignStatsResponse) => CampaignStats.json({ ...counts, campaignId });
export const timeseriesJson = (campaignId: string | null, interval: 'hour' | 'day', series: GetCampaignTimeseriesResponse) =>
  CampaignTimeseries.json({ ...series, campaignId, interval });
export const userStatsJson = (userId: string, campaignId: string | null, counts: GetUserStatsResponse, rewards: GetRewardStatsResponse) =>
  UserStats.json({ userId, campaignId, counts, rewards });
