import type { Connection } from 'mongoose';
import { AppScoped, DocumentWriteQueue } from '@ris/mongo';
import { campaignStatsModel, type CampaignStatsDoc } from './campaign-stats.model';

type Counter = 'totalReferrals' | 'completedReferrals' | 'totalClicks' | 'totalConversions' | 'totalRewardValue';

export interface CampaignCounts {
  totalReferrals: number;
  completedReferrals: number;
  totalClicks: number;
  totalConversions: number;
  /** Rewards the campaign's conversions created, less those cancelled. */
  totalRewardValue: number;
}

export const NO_COUNTS: CampaignCounts = { totalReferrals: 0, completedReferrals: 0, totalClicks: 0, totalConversions: 0, totalRewardValue: 0 };

/**
 * The campaign counters behind GET /stats, kept on write: each request's
 * increment is stored before it answers. Each increment follows the write
 * it counts (no transactions: a process dying between the two leaves the
 * counter one short).
 */
export class CampaignStats {
  private readonly stats: AppScoped<CampaignStatsDoc>;
  private readonly increments: DocumentWriteQueue<CampaignStatsDoc>;

  constructor(db: Connection) {
    this.stats = new AppScoped(campaignStatsModel(db));
    // Every click of a campaign bumps this one document: coalesced, it
    // costs about one write per round trip however many clicks arrive.
    this.increments = new DocumentWriteQueue(this.stats);
  }

  count(appId: string, campaignId: string, counters: Partial<Record<Counter, number>>): Promise<void> {
    return this.increments.increment(appId, { _id: campaignId }, counters, { campaignId });
  }

  /** The campaign's counters, or null when nothing was counted for it yet (or it is another app's). */
  async read(appId: string, campaignId: string): Promise<CampaignCounts | null> {
    const doc = await this.stats.findOne(appId, { _id: campaignId });
    if (!doc) return null;
    return {
      totalReferrals: doc.totalReferrals ?? 0,
      completedReferrals: doc.completedReferrals ?? 0,
      totalClicks: doc.totalClicks ?? 0,
      totalConversions: doc.totalConversions ?? 0,
      totalRewardValue: doc.totalRewardValue ?? 0,
    };
  }
}
