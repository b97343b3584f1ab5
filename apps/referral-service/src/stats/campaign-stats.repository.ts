import type { Connection } from 'mongoose';
import { DocumentWriteQueue, Repository, closeDrift, type CounterDrift } from '@ris/mongo';
import { campaignStatsModel, type CampaignStatsDoc } from './campaign-stats.model';

export type CampaignCounter = 'totalReferrals' | 'completedReferrals' | 'totalClicks' | 'totalConversions' | 'totalRewardValue' | 'totalReversals';

/** A campaign's totals (campaign-stats.model.ts): incremented and read by _id, the campaign id. */
export class CampaignStatsRepository extends Repository<CampaignStatsDoc> {
  // Every click of a campaign bumps this one document: coalesced, it
  // costs about one write per round trip however many clicks arrive.
  private readonly increments: DocumentWriteQueue<CampaignStatsDoc>;

  constructor(db: Connection) {
    super(campaignStatsModel(db));
    this.increments = new DocumentWriteQueue(this.collection);
  }

  /** Adds to the campaign's totals (its document made on the first increment). */
  add(appId: string, campaignId: string, counters: Partial<Record<CampaignCounter, number>>): Promise<void> {
    return this.increments.increment(appId, { _id: campaignId }, counters, { campaignId });
  }

  /** The totals of every campaign of the app that counted something (one document a campaign: an app has few). */
  ofApp(appId: string): Promise<CampaignStatsDoc[]> {
    return this.collection.find(appId, {});
  }

  /** Every campaign's totals, of one app or, without one, of every app: a maintenance pass (tools/referral-rebuild-stats.mjs). */
  all(appId?: string): AsyncIterable<CampaignStatsDoc> {
    return this.collection.model
      .find(appId ? { appId } : {})
      .lean<CampaignStatsDoc>()
      .cursor();
  }

  /** Closes a drift the maintenance pass found (an $inc of the difference; the document made if missing). */
  closeDrift(drift: CounterDrift): Promise<void> {
    return closeDrift(this.collection.model, drift, { campaignId: drift.docId });
  }
}
