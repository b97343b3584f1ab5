import {
  DiscountType,
  MarketplaceRedemptionStatus,
  type CounterpartSettlement,
  type Discount as DiscountMessage,
  type GetSettlementsResponse,
  type Listing as ListingMessage,
  type ListingSettlement,
  type MarketplaceCodeVerification,
  type MarketplaceRedemption as MarketplaceRedemptionMessage,
  type MarketplaceUserVerification,
  type SettlementTotals,
  type VerifyMarketplaceIdResponse,
} from '@ris/contracts';
import { Pagination, pagination, timestamp } from '../openapi/common-schemas';
import { MAX_AMOUNT } from '../openapi/number-fields';
import { z } from '../openapi/zod';
import { entity, from, publicEnum, time } from './entity';

export const DiscountTypes = publicEnum(DiscountType);
export const MarketplaceRedemptionStatuses = publicEnum(MarketplaceRedemptionStatus);
/** Which side of the marketplace a settlement is read from. */
export const SIDES = ['provider', 'redeemer'] as const;

/** A listing's discount: in its requests and its answers alike. */
export const Discount = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('PERCENT'), value: z.number().gt(0, 'must be more than 0').max(100, 'must be at most 100 for PERCENT') }),
    z.object({ type: z.literal('FIXED'), value: z.number().gt(0, 'must be more than 0').max(MAX_AMOUNT, `must be at most ${MAX_AMOUNT}`) }),
  ])
  .openapi('Discount', { description: 'PERCENT: value more than 0 and at most 100. FIXED: an amount off, more than 0.' });

// The service always sets the discount; an unset one would show as type null, as it always did.
const discountJson = (d: DiscountMessage | undefined) => ({ type: DiscountTypes.name(d?.type ?? 0), value: d?.value ?? 0 }) as z.input<typeof Discount>;
const discount = from(Discount, (m: { discount?: DiscountMessage }) => discountJson(m.discount));

/** The offer's terms, which the owner's and the public view of a listing both show. */
const listingTerms = {
  title: z.string(),
  description: z.string(),
  coinCost: z.number().int(),
  tokenCost: z.number().int(),
  quantity: z.number().int().openapi({ description: 'Codes left; -1 means unlimited.' }),
  discount,
  expiresAt: time(timestamp.nullable()),
};

/** A listing as its owner manages it. */
export const Listing = entity<ListingMessage>()('MarketplaceListing', {
  id: z.string(),
  ...listingTerms,
  published: z.boolean(),
  codeValidityDays: z.number().int(),
  createdAt: time(timestamp),
  updatedAt: time(timestamp),
});

/** A listing as every app sees it on the marketplace (appId: the business that offers it). */
export const PublicListing = entity<ListingMessage>()('PublicMarketplaceListing', {
  id: z.string(),
  appId: z.string().openapi({ description: 'The business app that offers it and honours its codes.' }),
  ...listingTerms,
  codeValidityDays: z.number().int(),
  createdAt: time(timestamp),
});

export const MarketplaceRedemption = entity<MarketplaceRedemptionMessage>()('MarketplaceRedemption', {
  id: z.string(),
  listingId: z.string(),
  userId: z.string().nullable().openapi({ description: "The redeeming app's user; null in the listing owner's view." }),
  discountCode: z.string().openapi({ example: 'MKT-7KQ2-MW9D-X3TB', description: 'Unique; present it to the business that owns the listing.' }),
  expiresAt: time(timestamp.openapi({ description: 'The code is honoured until then.' })),
  createdAt: time(timestamp),
  status: MarketplaceRedemptionStatuses.field(),
  appId: z.string().openapi({ description: 'The app whose user redeemed (and whose coins paid).' }),
  listingAppId: z.string().openapi({ description: 'The business app that owns the listing.' }),
  listingTitle: z.string(),
  coinCost: z.number().int(),
  tokenCost: z.number().int(),
  discount,
});

const Totals = entity<SettlementTotals>()(
  'SettlementTotals',
  { redemptions: z.number().int(), coins: z.number(), tokens: z.number() },
  { description: 'Codes issued and the coins and tokens they cost.' },
);
const totals = from(Totals.schema, (m: { totals?: SettlementTotals }) => (m.totals ? Totals.json(m.totals) : { redemptions: 0, coins: 0, tokens: 0 }));

const ListingTotals = entity<ListingSettlement>()(null, { listingId: z.string(), title: from(z.string(), (l: ListingSettlement) => l.listingTitle), totals });
const Counterpart = entity<CounterpartSettlement>()(null, {
  appId: z.string().openapi({ description: 'provider: an app whose users redeemed your listings. redeemer: a business whose listings your users redeemed.' }),
  totals,
  listings: ListingTotals.list(),
});

export const Settlements = entity<GetSettlementsResponse & { as: (typeof SIDES)[number] }>()('MarketplaceSettlements', {
  as: z.enum(SIDES),
  totals,
  counterparts: Counterpart.list(),
});

const CodeVerification = entity<MarketplaceCodeVerification>()('CodeVerification', {
  type: from(z.literal('CODE'), () => 'CODE' as const),
  valid: z.boolean().openapi({ description: 'The code can be honoured now (not expired).' }),
  code: z.string(),
  listingId: z.string(),
  status: MarketplaceRedemptionStatuses.field(),
  redeemedAt: time(timestamp),
  expiresAt: time(timestamp),
  discount,
  listingAppId: z.string(),
});

/** `asked`: the page the request asked for (a user's listings are paged). */
const UserVerification = entity<MarketplaceUserVerification & { asked: { page: number; limit: number } }>()('UserVerification', {
  type: from(z.literal('USER'), () => 'USER' as const),
  userId: z.string(),
  balance: from(z.object({ coins: z.number(), tokens: z.number() }), (u: MarketplaceUserVerification & { asked: { page: number; limit: number } }) => ({ coins: u.balance?.coins ?? 0, tokens: u.balance?.tokens ?? 0 })),
  listings: from(z.array(PublicListing.schema).openapi({ description: 'Public listings whose coin and token costs the balance covers, newest first.' }), (u: MarketplaceUserVerification & { asked: { page: number; limit: number } }) =>
    u.listings.map(PublicListing.json),
  ),
  pagination: from(Pagination, (u: MarketplaceUserVerification & { asked: { page: number; limit: number } }) => pagination(u.asked, u.page)),
});

export const Verification = z.union([CodeVerification.schema, UserVerification.schema]).openapi('MarketplaceVerification');

export const listingJson = Listing.json;
export const publicListingJson = PublicListing.json;
export const marketplaceRedemptionJson = MarketplaceRedemption.json;
export const settlementsJson = (res: GetSettlementsResponse, as: (typeof SIDES)[number]) => Settlements.json({ ...res, as });

/** `page`: the page the request asked for (a user's listings are paged). */
export function verificationJson(res: VerifyMarketplaceIdResponse, page: { page: number; limit: number }) {
  if (res.result.case === 'code') return CodeVerification.json(res.result.value);
  if (res.result.case !== 'user') throw new Error('verify answered neither a code nor a user');
  return UserVerification.json({ ...res.result.value, asked: { page: page.page, limit: page.limit } });
}
