import type { Campaigns } from '../campaigns/campaigns';
import type { BucketInterval, CampaignBuckets, Series } from './campaign-buckets';
import { NO_COUNTS, type CampaignCounts, type CampaignStats } from './campaign-stats';

/**
 * What GET /stats and GET /stats/timeseries read of a campaign: its
 * counters, which exist only for this app's campaigns, so the campaign is
 * read only when there are none (zeros for a quiet campaign, 404 for
 * another app's or an unknown one).
 */
export class CampaignFigures {
  constructor(
    private readonly campaigns: Campaigns,
    private readonly stats: CampaignStats,
    private readonly buckets: CampaignBuckets,
  ) {}

  /** The campaign's totals: one read when it has counters. */
  async totals(appId: string, campaignId: string): Promise<CampaignCounts> {
    const counts = await this.stats.read(appId, campaignId);
    if (counts) return counts;
    await this.campaigns.get(appId, campaignId);
    return NO_COUNTS;
  }

  /** The campaign's buckets of [from, to) (CampaignBuckets.series). */
  async timeseries(appId: string, campaignId: string, interval: BucketInterval, from: Date, to: Date): Promise<Series> {
    const series = await this.buckets.series(appId, campaignId, interval, from, to);
    if (series.stored === 0) await this.campaigns.get(appId, campaignId);
    return series;
  }
}
