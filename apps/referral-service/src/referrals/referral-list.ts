import { inBatches, type Page, type PageQuery } from '@ris/mongo';
import type { CampaignSummary } from '../campaigns/campaign.model';
import type { Campaigns } from '../campaigns/campaigns';
import type { ReferralCountersDoc } from './referral-counters.model';
import type { ReferralCountersRepository } from './referral-counters.repository';
import type { ReferralLookup } from './referral-lookup';
import type { ReferralDoc } from './referral.model';
import type { ReferralListFilter, ReferralRepository } from './referral.repository';

/** Referrals with what their messages show besides them: their counters (by referral id) and their campaigns. */
export interface ReferralBatch {
  items: ReferralDoc[];
  campaigns: Map<string, CampaignSummary>;
  counters: Map<string, ReferralCountersDoc>;
}

export type ReferralPage = Page<ReferralDoc> & ReferralBatch;

/** Referrals an export sends a message: a page's worth, so their counters are read as a page's are. */
const EXPORT_BATCH = 100;

/**
 * GET /referrals: newest first, each with its counters (status, reward
 * amount) and its campaign's name. Each filter has its index: a campaign's
 * referrals (appId, campaignId, createdAt, _id), a referrer's (appId,
 * referrerId: one per campaign, sorted in memory), both (the referrer's
 * owner key: at most one), none (appId, createdAt, _id).
 */
export class ReferralList {
  constructor(
    private readonly referrals: ReferralRepository,
    private readonly lookup: ReferralLookup,
    private readonly counters: ReferralCountersRepository,
    private readonly campaigns: Campaigns,
  ) {}

  async list(appId: string, filter: ReferralListFilter, page: PageQuery): Promise<ReferralPage> {
    let result: Page<ReferralDoc>;
    if (filter.campaignId && filter.referrerId) {
      const referral = await this.lookup.ofReferrer(appId, filter.campaignId, filter.referrerId);
      const items = referral && page.page === 1 ? [referral] : [];
      result = { items, page: page.page, limit: page.limit, totalItems: referral ? 1 : 0 };
    } else {
      result = await this.referrals.page(appId, filter, page);
    }
    return { ...result, ...(await this.withCounters(appId, result.items)) };
  }

  /** Every referral list() would list, in its order, a batch at a time with its counters and campaigns: an export. */
  async *export(appId: string, filter: ReferralListFilter): AsyncIterable<ReferralBatch> {
    const referrals = filter.campaignId && filter.referrerId ? this.ofReferrer(appId, filter.campaignId, filter.referrerId) : this.referrals.all(appId, filter);
    for await (const batch of inBatches(referrals, EXPORT_BATCH)) yield this.withCounters(appId, batch);
  }

  /** The referrer's referral in the campaign, if any: both filters name at most one. */
  private async *ofReferrer(appId: string, campaignId: string, referrerId: string): AsyncIterable<ReferralDoc> {
    const referral = await this.lookup.ofReferrer(appId, campaignId, referrerId);
    if (referral) yield referral;
  }

  private async withCounters(appId: string, items: ReferralDoc[]): Promise<ReferralBatch> {
    // At most 100 referrals: their counters by _id, side by side (an $in
    // would scan the collection on FerretDB), and their campaigns in one read.
    const [counters, campaigns] = await Promise.all([
      Promise.all(items.map((r) => this.counters.findById(appId, r._id))),
      this.campaigns.summaries(appId, [...new Set(items.map((r) => r.campaignId))]),
    ]);
    return {
      items,
      campaigns,
      counters: new Map(counters.filter((c): c is ReferralCountersDoc => c !== null).map((c) => [c._id, c])),
    };
  }
}
