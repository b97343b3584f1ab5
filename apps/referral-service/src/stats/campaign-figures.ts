import type { Page, PageQuery } from '@ris/mongo';
import type { CampaignDoc, CampaignStatusName } from '../campaigns/campaign.model';
import type { CampaignEffectiveStatusName } from '../campaigns/campaign-schedule';
import type { Campaigns } from '../campaigns/campaigns';
import type { BucketInterval, CampaignBuckets, Series } from './campaign-buckets';
import { NO_COUNTS, type CampaignCounts, type CampaignStats } from './campaign-stats';

export interface CampaignWithCounts {
  campaign: CampaignDoc;
  counts: CampaignCounts;
}

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

  /** The campaign's buckets of [from, to) (CampaignBuckets.series); without a campaign, every campaign's summed. */
  async timeseries(appId: string, campaignId: string | undefined, interval: BucketInterval, from: Date, to: Date): Promise<Series> {
    if (!campaignId) return this.buckets.appSeries(appId, interval, from, to);
    const series = await this.buckets.series(appId, campaignId, interval, from, to);
    if (series.stored === 0) await this.campaigns.get(appId, campaignId);
    return series;
  }

  /**
   * A page of the app's campaigns (as GET /campaigns lists them), each with
   * its totals (one read by _id each), and the app's totals over every
   * campaign: the all-campaigns report.
   */
  async page(
    appId: string,
    page: PageQuery,
    filter: { status?: CampaignStatusName; effectiveStatus?: CampaignEffectiveStatusName } = {},
  ): Promise<{ campaigns: Page<CampaignWithCounts>; totals: CampaignCounts }> {
    const [campaigns, totals] = await Promise.all([this.campaigns.list(appId, page, filter.status, filter.effectiveStatus), this.stats.ofApp(appId)]);
    const items = await Promise.all(campaigns.items.map(async (campaign) => ({ campaign, counts: (await this.stats.read(appId, campaign._id)) ?? NO_COUNTS })));
    return { campaigns: { ...campaigns, items }, totals };
  }
}
