import type { GetCampaignStatsResponse, GetCampaignTimeseriesResponse, GetRewardStatsResponse, GetUserStatsResponse, RewardAmounts } from '@ris/contracts';
import { isoTime } from './proto-json';

const earned = (a: RewardAmounts | undefined) => (a ? a.approved + a.paid : 0);
const pending = (a: RewardAmounts | undefined) => a?.pending ?? 0;
/** Money as a JSON number without float noise (0.1 + 0.2). */
const money = (n: number) => Math.round(n * 100) / 100;
/** A percentage to two decimals, 0 without a base. */
const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 100);

/**
 * GET /stats: the referral service's campaign counters. conversionRate is
 * the percentage of the campaign's referrals that converted at least once
 * (0 without referrals), to two decimals.
 */
export function campaignStatsJson(campaignId: string, counts: GetCampaignStatsResponse) {
  return {
    campaignId,
    totalReferrals: counts.totalReferrals,
    totalClicks: counts.totalClicks,
    totalConversions: counts.totalConversions,
    completedReferrals: counts.completedReferrals,
    conversionRate: percent(counts.completedReferrals, counts.totalReferrals),
    totalRewardValue: money(counts.totalRewardValue),
  };
}

/** GET /stats/timeseries: the referral service's buckets; each bucket's conversionRate is its conversions per click. */
export function timeseriesJson(campaignId: string, interval: 'hour' | 'day', series: GetCampaignTimeseriesResponse) {
  return {
    campaignId,
    interval,
    from: isoTime(series.from),
    to: isoTime(series.to),
    buckets: series.buckets.map((b) => ({
      start: isoTime(b.start),
      referrals: b.referrals,
      clicks: b.clicks,
      conversions: b.conversions,
      rewardValue: money(b.rewardValue),
      conversionRate: percent(b.conversions, b.clicks),
    })),
  };
}

/** GET /users/{userId}/stats: the user's referral counters and reward totals, merged by level. */
export function userStatsJson(userId: string, campaignId: string | null, counts: GetUserStatsResponse, rewards: GetRewardStatsResponse) {
  const levels = new Set([...counts.levels.map((l) => l.level), ...rewards.referrerLevels.map((l) => l.level)]);
  return {
    userId,
    campaignId,
    referrals: counts.referrals,
    clicks: counts.clicks,
    conversions: counts.conversions,
    rewardsEarned: money(earned(rewards.total)),
    rewardsPending: money(pending(rewards.total)),
    byLevel: [...levels]
      .sort((a, b) => a - b)
      .map((level) => {
        const amounts = rewards.referrerLevels.find((l) => l.level === level)?.amounts;
        return {
          level,
          conversions: counts.levels.find((l) => l.level === level)?.conversions ?? 0,
          rewardsEarned: money(earned(amounts)),
          rewardsPending: money(pending(amounts)),
        };
      }),
    refereeRewards: { earned: money(earned(rewards.referee)), pending: money(pending(rewards.referee)) },
  };
}
