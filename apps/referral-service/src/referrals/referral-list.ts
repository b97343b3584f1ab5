import type { Page, PageQuery } from '@ris/mongo';
import type { CampaignSummary } from '../campaigns/campaign.model';
import type { Campaigns } from '../campaigns/campaigns';
import type { ReferralCountersDoc } from './referral-counters.model';
import type { ReferralCountersRepository } from './referral-counters.repository';
import type { ReferralLookup } from './referral-lookup';
import type { ReferralDoc } from './referral.model';
import type { ReferralListFilter, ReferralRepository } from './referral.repository';

export type ReferralPage = Page<ReferralDoc> & { campaigns: Map<string, CampaignSummary>; counters: Map<string, ReferralCountersDoc> };

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
    // A page holds at most 100 referrals: their counters by _id, side by side
    // (an $in would scan the collection on FerretDB), and their campaigns in one read.
    const [counters, campaigns] = await Promise.all([
      Promise.all(result.items.map((r) => this.counters.findById(appId, r._id))),
      this.campaigns.summaries(appId, [...new Set(result.items.map((r) => r.campaignId))]),
    ]);
    return {
      ...result,
      campaigns,
      counters: new Map(counters.filter((c): c is ReferralCountersDoc => c !== null).map((c) => [c._id, c])),
    };
  }
}
