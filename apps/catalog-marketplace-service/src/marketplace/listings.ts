import { DEFAULT_CODE_VALIDITY_DAYS } from '@ris/contracts';
import { invalid, notFound, refused } from '@ris/domain-errors';
import { idFromOperation, type Page, type PageQuery } from '@ris/mongo';
import { checkStock, checkText, checkedPriceTerms, newPriceTerms } from '../goods/field-rules';
import { newGoodFields, OwnedGoods } from '../goods/owned-goods';
import type { DiscountDoc, ListingDoc } from './listing.model';
import type { CostCeiling, ListingRepository } from './listing.repository';

export interface ListingInput {
  title: string;
  description?: string;
  coinCost: number;
  tokenCost?: number;
  quantity?: number;
  discount: DiscountDoc;
  expiresAt?: Date | null;
  published?: boolean;
  codeValidityDays?: number;
}

/** Only the fields set change; expiresAt null removes the expiry. */
export type ListingPatch = Partial<ListingInput>;

const TITLE_MAX = 200;

function checkDiscount(discount: DiscountDoc): DiscountDoc {
  const { type, value } = discount;
  if (type === 'PERCENT') {
    if (!Number.isFinite(value) || value <= 0 || value > 100) throw invalid('discount.value must be more than 0 and at most 100 for PERCENT');
  } else if (type === 'FIXED') {
    if (!Number.isFinite(value) || value <= 0) throw invalid('discount.value must be more than 0 for FIXED');
  } else {
    throw invalid('discount.type must be PERCENT or FIXED');
  }
  return { type, value };
}

function checkExpiry(expiresAt: Date | null, now: Date): Date | null {
  // 422: a well-formed date-time that the clock has passed.
  if (expiresAt && expiresAt.getTime() <= now.getTime()) {
    throw refused('EXPIRES_AT_PASSED', 'expiresAt must be in the future', { field: 'expiresAt' });
  }
  return expiresAt;
}

function checkValidityDays(days: number): number {
  if (!Number.isInteger(days) || days < 1 || days > 3650) throw invalid('codeValidityDays must be a whole number from 1 to 3650');
  return days;
}

/**
 * Marketplace listings: managed by the business app that offers them
 * (get, list and delete: OwnedGoods; a deleted listing is off the
 * marketplace, and codes already issued stay valid and settled), and read
 * publicly by every app (the one deliberate cross-tenant read).
 */
export class Listings extends OwnedGoods<ListingDoc> {
  constructor(private readonly listings: ListingRepository) {
    super(listings, { noun: 'Listing', idField: 'listingId' });
  }

  /** With an operation key, a retry of the request answers what its first try made. */
  async create(appId: string, input: ListingInput, operationKey = ''): Promise<ListingDoc> {
    const now = new Date();
    return this.listings.create(appId, {
      _id: idFromOperation('lst', operationKey),
      title: checkText(input.title, 'title', TITLE_MAX, true),
      ...newPriceTerms(input),
      quantity: checkStock(input.quantity ?? -1, 'quantity'),
      discount: checkDiscount(input.discount),
      expiresAt: checkExpiry(input.expiresAt ?? null, now),
      published: input.published ?? false,
      codeValidityDays: checkValidityDays(input.codeValidityDays ?? DEFAULT_CODE_VALIDITY_DAYS),
      ...newGoodFields(now),
    });
  }

  async update(appId: string, listingId: string, patch: ListingPatch): Promise<ListingDoc> {
    const now = new Date();
    const set: Partial<ListingDoc> = { updatedAt: now };
    if (patch.title !== undefined) set.title = checkText(patch.title, 'title', TITLE_MAX, true);
    Object.assign(set, checkedPriceTerms(patch));
    // An absolute count: redemptions in flight keep the units they hold.
    if (patch.quantity !== undefined) set.quantity = checkStock(patch.quantity, 'quantity');
    if (patch.discount !== undefined) set.discount = checkDiscount(patch.discount);
    if (patch.expiresAt !== undefined) set.expiresAt = checkExpiry(patch.expiresAt, now);
    if (patch.published !== undefined) set.published = patch.published;
    if (patch.codeValidityDays !== undefined) set.codeValidityDays = checkValidityDays(patch.codeValidityDays);
    return this.setLive(appId, listingId, set);
  }

  /**
   * Every app's listings that can be redeemed now: published, not deleted,
   * unexpired, in stock, optionally within a cost ceiling. Deliberately
   * not scoped by app (docs/product-decisions.md §2.1: the marketplace's public listings).
   */
  publicPage(page: PageQuery, ceiling: CostCeiling = {}): Promise<Page<ListingDoc>> {
    return this.listings.publicPage(page, ceiling, new Date());
  }

  /**
   * One listing as the public sees it: published and not deleted (also
   * when expired or sold out, so a shared link still explains itself).
   * Cross-tenant on purpose, like publicPage.
   */
  async getPublic(listingId: string): Promise<ListingDoc> {
    const listing = await this.listings.publicOne(listingId);
    if (!listing) throw notFound('Listing', { listingId });
    return listing;
  }

  /**
   * The listing a user of `appId` wants to redeem. Another app's listing
   * that is not public is unknown (404); the owner is told it is
   * unavailable; a public one that expired is unavailable to everyone.
   */
  async getRedeemable(appId: string, listingId: string): Promise<ListingDoc> {
    const listing = await this.redeemableReads.read(listingId, () => this.listings.byIdAcrossApps(listingId));
    const visible = listing && (listing.appId === appId || (listing.published && listing.deletedAt === null));
    if (!listing || !visible) throw notFound('Listing', { listingId });
    if (!this.listings.isAvailable(listing, new Date())) {
      throw refused('ITEM_UNAVAILABLE', `Listing ${listingId} is not available (unpublished, deleted or expired).`, { listingId });
    }
    return listing;
  }

  /** Titles of listings named by the caller's own redemptions (settlement rows); any app's. */
  titles(listingIds: string[]): Promise<Map<string, string>> {
    return this.listings.titles(listingIds);
  }
}
