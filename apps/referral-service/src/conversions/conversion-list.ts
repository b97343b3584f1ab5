import { inBatches, mergeSorted, type Page, type PageQuery } from '@ris/mongo';
import type { CampaignSummary } from '../campaigns/campaign.model';
import type { Campaigns } from '../campaigns/campaigns';
import { normalizeReferralCode } from '../referrals/referral-code';
import type { ConversionDoc, ConversionStatusName } from './conversion.model';
import type { ConversionListFilter, ConversionRepository } from './conversion.repository';

export interface ConversionFilter {
  campaignId?: string;
  /** The code the referee used: a code's whole chain (every level). */
  referralCode?: string;
  status?: ConversionStatusName;
  /** Records where this user is the referrer or the referee. */
  userId?: string;
}

export type ConversionPage = Page<ConversionDoc> & { campaigns: Map<string, CampaignSummary> };

/** Records an export sends a message. */
const EXPORT_BATCH = 500;

async function* fromArray<T>(items: T[]): AsyncIterable<T> {
  yield* items;
}

const listFilter = (filter: ConversionFilter): ConversionListFilter => ({
  campaignId: filter.campaignId,
  originalReferralCode: filter.referralCode ? normalizeReferralCode(filter.referralCode) : undefined,
  status: filter.status,
});

const newerFirst = (a: ConversionDoc, b: ConversionDoc) => b.lastEventAt.getTime() - a.lastEventAt.getTime() || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0);

/** GET /conversions: funnel records, newest activity first, with their campaigns' names. */
export class ConversionList {
  constructor(
    private readonly conversions: ConversionRepository,
    private readonly campaigns: Campaigns,
  ) {}

  async list(appId: string, filter: ConversionFilter, page: PageQuery): Promise<ConversionPage> {
    const query = listFilter(filter);
    const result = filter.userId ? await this.pageOfUser(appId, query, filter.userId, page) : await this.conversions.page(appId, query, page);
    // One read for the page's campaigns (a page holds at most 100 records).
    const campaigns = await this.campaigns.summaries(appId, [...new Set(result.items.map((r) => r.campaignId))]);
    return { ...result, campaigns };
  }

  /**
   * Every record list() would list, in its order, a batch at a time with
   * the batch's campaigns: an export. A user's records are their two
   * streams merged, as a page of them is.
   */
  async *export(appId: string, filter: ConversionFilter): AsyncIterable<{ records: ConversionDoc[]; campaigns: Map<string, CampaignSummary> }> {
    const query = listFilter(filter);
    const records = filter.userId ? this.allOfUser(appId, query, filter.userId) : this.conversions.all(appId, query);
    for await (const batch of inBatches(records, EXPORT_BATCH)) {
      yield { records: batch, campaigns: await this.campaigns.summaries(appId, [...new Set(batch.map((r) => r.campaignId))]) };
    }
  }

  private async *allOfUser(appId: string, query: ConversionListFilter, userId: string): AsyncIterable<ConversionDoc> {
    const asReferee = (await this.conversions.ofReferee(appId, query, userId)).filter((r) => r.referrerId !== userId);
    yield* mergeSorted(this.conversions.allOfReferrer(appId, query, userId), fromArray(asReferee), (a, b) => newerFirst(a, b) < 0);
  }

  /**
   * The records where `userId` is the referrer or the referee, newest first:
   * two indexed queries merged, never an $or (FerretDB answers an $or by
   * scanning the collection). As a referee a user has at most one record per
   * campaign and level, so those are read whole; as a referrer, a count and
   * the newest up to the end of the page (what a skip would read too). A
   * record of both (a self-referral) is listed once.
   */
  private async pageOfUser(appId: string, query: ConversionListFilter, userId: string, page: PageQuery): Promise<Page<ConversionDoc>> {
    const [asReferee, referrerCount] = await Promise.all([
      this.conversions.ofReferee(appId, query, userId),
      this.conversions.countOfReferrer(appId, query, userId),
    ]);
    const both = asReferee.filter((r) => r.referrerId === userId).length;
    const totalItems = referrerCount + asReferee.length - both;
    const offset = (page.page - 1) * page.limit;
    if (offset >= totalItems) return { items: [], page: page.page, limit: page.limit, totalItems };
    const referred = await this.conversions.newestOfReferrer(appId, query, userId, offset + page.limit);
    const seen = new Set(referred.map((r) => r._id));
    const merged = [...referred, ...asReferee.filter((r) => !seen.has(r._id))].sort(newerFirst);
    return { items: merged.slice(offset, offset + page.limit), page: page.page, limit: page.limit, totalItems };
  }
}
