import {
  DiscountType,
  MarketplaceRedemptionStatus,
  enumName,
  type Discount,
  type GetSettlementsResponse,
  type Listing,
  type MarketplaceRedemption,
  type SettlementTotals,
  type VerifyMarketplaceIdResponse,
} from '@ris/contracts';
import { pagination } from '../openapi/common-schemas';
import { isoTime } from './proto-json';

const discountJson = (d: Discount | undefined) => ({ type: enumName(DiscountType, d?.type ?? 0) ?? null, value: d?.value ?? 0 });

/** The offer's terms, which the owner's and the public view of a listing both show. */
const listingTermsJson = (l: Listing) => ({
  title: l.title,
  description: l.description,
  coinCost: l.coinCost,
  tokenCost: l.tokenCost,
  quantity: l.quantity,
  discount: discountJson(l.discount),
  expiresAt: isoTime(l.expiresAt),
});

/** A listing as its owner manages it. */
export function listingJson(l: Listing) {
  return {
    id: l.id,
    ...listingTermsJson(l),
    published: l.published,
    codeValidityDays: l.codeValidityDays,
    createdAt: isoTime(l.createdAt),
    updatedAt: isoTime(l.updatedAt),
  };
}

/** A listing as every app sees it on the marketplace (appId: the business that offers it). */
export function publicListingJson(l: Listing) {
  return {
    id: l.id,
    appId: l.appId,
    ...listingTermsJson(l),
    codeValidityDays: l.codeValidityDays,
    createdAt: isoTime(l.createdAt),
  };
}

export function marketplaceRedemptionJson(r: MarketplaceRedemption) {
  return {
    id: r.id,
    listingId: r.listingId,
    userId: r.userId ?? null,
    discountCode: r.discountCode,
    expiresAt: isoTime(r.expiresAt),
    createdAt: isoTime(r.createdAt),
    status: enumName(MarketplaceRedemptionStatus, r.status) ?? null,
    appId: r.appId,
    listingAppId: r.listingAppId,
    listingTitle: r.listingTitle,
    coinCost: r.coinCost,
    tokenCost: r.tokenCost,
    discount: discountJson(r.discount),
  };
}

/** `page`: the page the request asked for (a user's listings are paged). */
export function verificationJson(res: VerifyMarketplaceIdResponse, page: { page: number; limit: number }) {
  if (res.result.case === 'code') {
    const c = res.result.value;
    return {
      type: 'CODE' as const,
      valid: c.valid,
      code: c.code,
      listingId: c.listingId,
      status: enumName(MarketplaceRedemptionStatus, c.status) ?? null,
      redeemedAt: isoTime(c.redeemedAt),
      expiresAt: isoTime(c.expiresAt),
      discount: discountJson(c.discount),
      listingAppId: c.listingAppId,
    };
  }
  if (res.result.case !== 'user') throw new Error('verify answered neither a code nor a user');
  const u = res.result.value;
  return {
    type: 'USER' as const,
    userId: u.userId,
    balance: { coins: u.balance?.coins ?? 0, tokens: u.balance?.tokens ?? 0 },
    listings: u.listings.map(publicListingJson),
    pagination: pagination(page, u.page),
  };
}

const totalsJson = (t: SettlementTotals | undefined) => ({ redemptions: t?.redemptions ?? 0, coins: t?.coins ?? 0, tokens: t?.tokens ?? 0 });

export function settlementsJson(res: GetSettlementsResponse, as: 'provider' | 'redeemer') {
  return {
    as,
    totals: totalsJson(res.totals),
    counterparts: res.counterparts.map((c) => ({
      appId: c.appId,
      totals: totalsJson(c.totals),
      listings: c.listings.map((l) => ({ listingId: l.listingId, title: l.listingTitle, totals: totalsJson(l.totals) })),
    })),
  };
}
