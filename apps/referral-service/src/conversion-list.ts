import type { Page, PageQuery } from '@ris/mongo';
import type { CampaignDoc } from './campaign.model';
import type { ConversionDoc, ConversionStatusName } from './conversion.model';
import { normalizeReferralCode } from './referral-code';
import type { ReferralStore } from './referral-store';

export interface ConversionFilter {
  campaignId?: string;
  /** The code the referee used: a code's whole chain (every level). */
  referralCode?: string;
  status?: ConversionStatusName;
}

export type CampaignNames = Map<string, Pick<CampaignDoc, '_id' | 'name' | 'status'>>;

/** GET /conversions: funnel records, newest activity first, with their campaigns' names. */
export async function listConversions(
  store: ReferralStore,
  appId: string,
  filter: ConversionFilter,
  page: PageQuery,
): Promise<Page<ConversionDoc> & { campaigns: CampaignNames }> {
  const query: Record<string, unknown> = {};
  if (filter.campaignId) query.campaignId = filter.campaignId;
  if (filter.referralCode) query.originalReferralCode = normalizeReferralCode(filter.referralCode);
  if (filter.status) query.status = filter.status;
  const result = await store.conversions.page(appId, query, { lastEventAt: -1, _id: -1 }, page);
  // One read for the page's campaigns (a page holds at most 100 records).
  const campaigns = await store.campaigns.summaries(appId, [...new Set(result.items.map((r) => r.campaignId))]);
  return { ...result, campaigns };
}
