import type { Connection, FilterQuery } from 'mongoose';
import type { Page, PageQuery } from '@ris/mongo';
import { GoodRepository } from '../goods/good.repository';
import { listingModel, type ListingDoc } from './listing.model';

export interface CostCeiling {
  maxCoinCost?: number;
  maxTokenCost?: number;
}

/**
 * Marketplace listings: their owner's queries and the stock moves
 * (GoodRepository), and the reads every app makes of any app's listings
 * (the marketplace is public: docs/product-decisions.md §2.1), each named
 * for why it is not scoped by the caller's app.
 */
export class ListingRepository extends GoodRepository<ListingDoc> {
  constructor(db: Connection) {
    super(listingModel(db), 'quantity');
  }

  /** Redeemable now: published, not deleted, not expired (stock is the counter's business). */
  protected availableNow(now: Date): Record<string, unknown> {
    return { published: true, deletedAt: null, $or: [{ expiresAt: null }, { expiresAt: { $gt: now } }] };
  }

  isAvailable(listing: ListingDoc, now: Date): boolean {
    return listing.published && listing.deletedAt === null && (listing.expiresAt === null || listing.expiresAt.getTime() > now.getTime());
  }

  /**
   * Every app's listings that can be redeemed now and are in stock,
   * optionally within a cost ceiling, newest first. Across apps: the
   * marketplace's public listings.
   */
  publicPage(page: PageQuery, ceiling: CostCeiling, now: Date): Promise<Page<ListingDoc>> {
    const conditions: Record<string, unknown> = { ...this.availableNow(now), quantity: { $ne: 0 } };
    if (ceiling.maxCoinCost !== undefined) conditions.coinCost = { $lte: ceiling.maxCoinCost };
    if (ceiling.maxTokenCost !== undefined) conditions.tokenCost = { $lte: ceiling.maxTokenCost };
    return this.pageAcrossApps(conditions as FilterQuery<ListingDoc>, { createdAt: -1, _id: -1 }, page);
  }

  /** A published, not deleted listing of any app (also when expired or sold out): the public view of one. */
  publicOne(listingId: string): Promise<ListingDoc | null> {
    return this.acrossApps.findOne({ _id: listingId, published: true, deletedAt: null }).lean<ListingDoc>().exec();
  }

  /** Any app's listing by its id: a redemption by another app's user; who may see it is the caller's rule (Listings.getRedeemable). */
  byIdAcrossApps(listingId: string): Promise<ListingDoc | null> {
    return this.acrossApps.findOne({ _id: listingId }).lean<ListingDoc>().exec();
  }

  /** Titles of listings of any app: those named by the caller's own redemptions (settlement rows). */
  async titles(listingIds: string[]): Promise<Map<string, string>> {
    if (listingIds.length === 0) return new Map();
    const found = await this.acrossApps.find({ _id: { $in: listingIds } }).lean<ListingDoc[]>().exec();
    return new Map(found.map((l) => [l._id, l.title]));
  }
}
