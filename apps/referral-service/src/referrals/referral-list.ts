import type { Page, PageQuery } from '@ris/mongo';
import type { CampaignNames } from '../conversions/conversion-list';
import type { ReferralCountersDoc } from './referral-counters.model';
import type { ReferralDoc } from './referral.model';
import type { ReferralStore } from '../referral-store';

export interface ReferralFilter {
  campaignId?: string;
  referrerId?: string;
}

export type ReferralPage = Page<ReferralDoc> & { campaigns: CampaignNames; counters: Map<string, ReferralCountersDoc> };

const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;

/**
 * GET /referrals: newest first, each with its counters (status, reward
 * amount) and its campaign's name. Each filter has its index: a campaign's
 * referrals (appId, campaignId, createdAt, _id), a referrer's (appId,
 * referrerId: one per campaign, sorted in memory), both (the referrer's
 * owner key: at most one), none (appId, createdAt, _id).
 */
export async function listReferrals(store: ReferralStore, appId: string, filter: ReferralFilter, page: PageQuery): Promise<ReferralPage> {
  let result: Page<ReferralDoc>;
  if (filter.campaignId && filter.referrerId) {
    const referral = await store.referralOf(appId, filter.campaignId, filter.referrerId);
    const items = referral && page.page === 1 ? [referral] : [];
    result = { items, page: page.page, limit: page.limit, totalItems: referral ? 1 : 0 };
  } else {
    const query: Record<string, string> = {};
    if (filter.campaignId) query.campaignId = filter.campaignId;
    if (filter.referrerId) query.referrerId = filter.referrerId;
    result = await store.referrals.page(appId, query, NEWEST_FIRST, page);
  }
  // A page holds at most 100 referrals: their counters by _id, side by side
  // (an $in would scan the collection on FerretDB), and their campaigns in one read.
  const [counters, campaigns] = await Promise.all([
    Promise.all(result.items.map((r) => store.counters.findById(appId, r._id))),
    store.campaigns.summaries(appId, [...new Set(result.items.map((r) => r.campaignId))]),
  ]);
  return {
    ...result,
    campaigns,
    counters: new Map(counters.filter((c): c is ReferralCountersDoc => c !== null).map((c) => [c._id, c])),
  };
}
