import type { BucketCounts } from './campaign-bucket.model';
import type { CampaignBuckets } from './campaign-buckets';
import type { CampaignStatsDoc } from './campaign-stats.model';
import type { CampaignCounter, CampaignStatsRepository } from './campaign-stats.repository';

export interface CampaignCounts {
  totalReferrals: number;
  completedReferrals: number;
  totalClicks: number;
  totalConversions: number;
  /** Rewards the campaign's conversions and purchases created, less those cancelled and what reversals took back. */
  totalRewardValue: number;
  totalReversals: number;
}

export const NO_COUNTS: CampaignCounts = { totalReferrals: 0, completedReferrals: 0, totalClicks: 0, totalConversions: 0, totalRewardValue: 0, totalReversals: 0 };

const countsOf = (doc: CampaignStatsDoc): CampaignCounts => ({
  totalReferrals: doc.totalReferrals ?? 0,
  completedReferrals: doc.completedReferrals ?? 0,
  totalClicks: doc.totalClicks ?? 0,
  totalConversions: doc.totalConversions ?? 0,
  totalRewardValue: doc.totalRewardValue ?? 0,
  totalReversals: doc.totalReversals ?? 0,
});

/** The totals' counters a time bucket keeps too (completedReferrals has no time of its own). */
const BUCKETED: Partial<Record<CampaignCounter, keyof BucketCounts>> = {
  totalReferrals: 'referrals',
  totalClicks: 'clicks',
  totalConversions: 'conversions',
  totalRewardValue: 'rewardValue',
  totalReversals: 'reversals',
};

/**
 * The campaign counters behind GET /stats, kept on write: each request's
 * increment is stored before it answers. Each increment follows the write
 * it counts (no transactions: a process dying between the two leaves the
 * counter one short). The same increments go to the campaign's hour and
 * day (CampaignBuckets) behind GET /stats/timeseries.
 */
export class CampaignStats {
  constructor(
    private readonly stats: CampaignStatsRepository,
    private readonly buckets: CampaignBuckets,
  ) {}

  /**
   * Adds to the campaign's totals and to the bucket of `at` (the time of
   * what is counted: a referral's creation, a click batch, a conversion;
   * a reward's value counts at its conversion's time, when it is created
   * and when it is cancelled). Both writes run side by side.
   */
  async count(appId: string, campaignId: string, counters: Partial<Record<CampaignCounter, number>>, at: Date): Promise<void> {
    const bucketed: BucketCounts = {};
    for (const [counter, amount] of Object.entries(counters) as Array<[CampaignCounter, number]>) {
      const field = BUCKETED[counter];
      if (field) bucketed[field] = amount;
    }
    await Promise.all([this.stats.add(appId, campaignId, counters), this.buckets.count(appId, campaignId, at, bucketed)]);
  }

  /** The campaign's counters, or null when nothing was counted for it yet (or it is another app's). */
  async read(appId: string, campaignId: string): Promise<CampaignCounts | null> {
    const doc = await this.stats.findById(appId, campaignId);
    return doc ? countsOf(doc) : null;
  }

  /** The app's counters: every campaign's, summed. */
  async ofApp(appId: string): Promise<CampaignCounts> {
    const sum = { ...NO_COUNTS };
    for (const doc of await this.stats.ofApp(appId)) {
      for (const [field, value] of Object.entries(countsOf(doc)) as Array<[keyof CampaignCounts, number]>) sum[field] += value;
    }
    return sum;
  }
}
