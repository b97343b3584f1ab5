import type { Page, PageQuery } from '@ris/mongo';
import type { CampaignDoc } from '../campaigns/campaign.model';
import type { ConversionDoc, ConversionStatusName } from './conversion.model';
import { normalizeReferralCode } from '../referrals/referral-code';
import type { ReferralStore } from '../referral-store';

export interface ConversionFilter {
  campaignId?: string;
  /** The code the referee used: a code's whole chain (every level). */
  referralCode?: string;
  status?: ConversionStatusName;
  /** Records where this user is the referrer or the referee. */
  userId?: string;
}

export type CampaignNames = Map<string, Pick<CampaignDoc, '_id' | 'name' | 'status'>>;

const NEWEST_FIRST = { lastEventAt: -1, _id: -1 } as const;

const newerFirst = (a: ConversionDoc, b: ConversionDoc) => b.lastEventAt.getTime() - a.lastEventAt.getTime() || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0);

/**
 * The records where `userId` is the referrer or the referee, newest first:
 * two indexed queries merged, never an $or (FerretDB answers an $or by
 * scanning the collection). As a referee a user has at most one record per
 * campaign and level, so those are read whole; as a referrer, a count and
 * the newest up to the end of the page (what a skip would read too). A
 * record of both (a self-referral) is listed once.
 */
async function pageOfUser(store: ReferralStore, appId: string, query: Record<string, unknown>, userId: string, page: PageQuery): Promise<Page<ConversionDoc>> {
  const asReferrer = { ...query, referrerId: userId };
  const [asReferee, referrerCount] = await Promise.all([
    store.conversions.find(appId, { ...query, refereeId: userId }, { sort: NEWEST_FIRST }),
    store.conversions.count(appId, asReferrer),
  ]);
  const both = asReferee.filter((r) => r.referrerId === userId).length;
  const totalItems = referrerCount + asReferee.length - both;
  const offset = (page.page - 1) * page.limit;
  if (offset >= totalItems) return { items: [], page: page.page, limit: page.limit, totalItems };
  const referred = await store.conversions.find(appId, asReferrer, { sort: NEWEST_FIRST, limit: offset + page.limit });
  const seen = new Set(referred.map((r) => r._id));
  const merged = [...referred, ...asReferee.filter((r) => !seen.has(r._id))].sort(newerFirst);
  return { items: merged.slice(offset, offset + page.limit), page: page.page, limit: page.limit, totalItems };
}

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
  const result = filter.userId ? await pageOfUser(store, appId, query, filter.userId, page) : await store.conversions.page(appId, query, NEWEST_FIRST, page);
  // One read for the page's campaigns (a page holds at most 100 records).
  const campaigns = await store.campaigns.summaries(appId, [...new Set(result.items.map((r) => r.campaignId))]);
  return { ...result, campaigns };
}
