import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { DEFAULT_CODE_VALIDITY_DAYS, DiscountType, SettlementSide, enumValue } from '@ris/contracts';
import type { ApiRouter } from '../http/api-router';
import { balanceJson } from '../mappers/catalog.mapper';
import {
  listingJson,
  marketplaceRedemptionJson,
  publicListingJson,
  settlementsJson,
  verificationJson,
} from '../mappers/marketplace.mapper';
import { Pagination, dateTime, id, pageQuery, pageRequest, pagination, timestamp } from '../openapi/common-schemas';
import { booleanFromQuery, wholeNumberFromQuery } from '../openapi/query-values';
import { MAX_AMOUNT, days } from '../openapi/number-fields';
import { freeText, label } from '../openapi/text-fields';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';
import { Balance, Cost, StockCount } from './catalog';

const SIDES = ['provider', 'redeemer'] as const;

const Discount = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('PERCENT'), value: z.number().gt(0, 'must be more than 0').max(100, 'must be at most 100 for PERCENT') }),
    z.object({ type: z.literal('FIXED'), value: z.number().gt(0, 'must be more than 0').max(MAX_AMOUNT, `must be at most ${MAX_AMOUNT}`) }),
  ])
  .openapi('Discount', { description: 'PERCENT: value more than 0 and at most 100. FIXED: an amount off, more than 0.' });

const ListingFields = {
  title: label(),
  description: freeText(2000),
  coinCost: Cost,
  tokenCost: Cost,
  quantity: StockCount.openapi({ description: 'Codes left to issue; -1 means unlimited.' }),
  discount: Discount,
  expiresAt: dateTime('The offer ends then (it must be in the future: 422 EXPIRES_AT_PASSED otherwise). Codes already issued keep their own expiry.'),
  published: z.boolean(),
  codeValidityDays: days().openapi({ description: 'How long each issued code stays valid.' }),
};

/** The offer's terms, which the owner's and the public view of a listing both show. */
const ListingTerms = {
  title: z.string(),
  description: z.string(),
  coinCost: z.number().int(),
  tokenCost: z.number().int(),
  quantity: z.number().int().openapi({ description: 'Codes left; -1 means unlimited.' }),
  discount: Discount,
  expiresAt: timestamp.nullable(),
};

const Listing = z
  .object({
    id: z.string(),
    ...ListingTerms,
    published: z.boolean(),
    codeValidityDays: z.number().int(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .openapi('MarketplaceListing');

const PublicListing = z
  .object({
    id: z.string(),
    appId: z.string().openapi({ description: 'The business app that offers it and honours its codes.' }),
    ...ListingTerms,
    codeValidityDays: z.number().int(),
    createdAt: timestamp,
  })
  .openapi('PublicMarketplaceListing');

const MarketplaceRedemption = z
  .object({
    id: z.string(),
    listingId: z.string(),
    userId: z.string().nullable().openapi({ description: "The redeeming app's user; null in the listing owner's view." }),
    discountCode: z.string().openapi({ example: 'MKT-7KQ2-MW9D-X3TB', description: 'Unique; present it to the business that owns the listing.' }),
    expiresAt: timestamp.openapi({ description: 'The code is honoured until then.' }),
    createdAt: timestamp,
    status: z.enum(['ACTIVE', 'EXPIRED']),
    appId: z.string().openapi({ description: 'The app whose user redeemed (and whose coins paid).' }),
    listingAppId: z.string().openapi({ description: 'The business app that owns the listing.' }),
    listingTitle: z.string(),
    coinCost: z.number().int(),
    tokenCost: z.number().int(),
    discount: Discount,
  })
  .openapi('MarketplaceRedemption');

const Totals = z
  .object({ redemptions: z.number().int(), coins: z.number(), tokens: z.number() })
  .openapi('SettlementTotals', { description: 'Codes issued and the coins and tokens they cost.' });

const Settlements = z
  .object({
    as: z.enum(SIDES),
    totals: Totals,
    counterparts: z.array(
      z.object({
        appId: z.string().openapi({ description: 'provider: an app whose users redeemed your listings. redeemer: a business whose listings your users redeemed.' }),
        totals: Totals,
        listings: z.array(z.object({ listingId: z.string(), title: z.string(), totals: Totals })),
      }),
    ),
  })
  .openapi('MarketplaceSettlements');

const Verification = z
  .union([
    z
      .object({
        type: z.literal('CODE'),
        valid: z.boolean().openapi({ description: 'The code can be honoured now (not expired).' }),
        code: z.string(),
        listingId: z.string(),
        status: z.enum(['ACTIVE', 'EXPIRED']),
        redeemedAt: timestamp,
        expiresAt: timestamp,
        discount: Discount,
        listingAppId: z.string(),
      })
      .openapi('CodeVerification'),
    z
      .object({
        type: z.literal('USER'),
        userId: z.string(),
        balance: z.object({ coins: z.number(), tokens: z.number() }),
        listings: z.array(PublicListing).openapi({ description: 'Public listings whose coin and token costs the balance covers, newest first.' }),
        pagination: Pagination,
      })
      .openapi('UserVerification'),
  ])
  .openapi('MarketplaceVerification');

const ListingEnvelope = z.object({ listing: Listing });
const PublicListingEnvelope = z.object({ listing: PublicListing });
const listingParams = z.object({ listingId: id('Listing id') });
const listingFromBody = { listingId: '$response.body#/listing/id' };
const side = (as: (typeof SIDES)[number]) => (as === 'redeemer' ? SettlementSide.REDEEMER : SettlementSide.PROVIDER);
const discountProto = (d: z.output<typeof Discount>) => ({ type: enumValue(DiscountType, d.type), value: d.value });
const listSchema = <T extends z.ZodType>(key: string, item: T) => z.object({ [key]: z.array(item), pagination: Pagination });

/** /incentives/marketplace: listings (owner), the public marketplace, redeeming, verification and settlement. */
export function marketplaceRoutes(api: ApiRouter, clients: ServiceClients): void {
  const service = clients.catalogMarketplace;

  api.route({
    method: 'post',
    path: '/incentives/marketplace/listings',
    tag: 'Marketplace',
    summary: 'Offer a listing on the marketplace',
    description: 'Your app is the business that offers it: users of every app can redeem it with their own app\'s coins and tokens once it is published.',
    body: z
      .object({
        title: ListingFields.title,
        description: ListingFields.description.optional(),
        coinCost: ListingFields.coinCost,
        tokenCost: ListingFields.tokenCost.optional().openapi({ default: 0 }),
        quantity: ListingFields.quantity.optional().openapi({ default: -1 }),
        discount: ListingFields.discount,
        expiresAt: ListingFields.expiresAt.optional(),
        published: ListingFields.published.optional().openapi({ default: false }),
        codeValidityDays: ListingFields.codeValidityDays.optional().openapi({ default: DEFAULT_CODE_VALIDITY_DAYS }),
      })
      .openapi('CreateListingRequest'),
    responses: {
      201: {
        description: 'Created',
        schema: ListingEnvelope,
        links: {
          GetListing: { method: 'get', path: '/incentives/marketplace/listings/:listingId', parameters: listingFromBody },
          UpdateListing: { method: 'patch', path: '/incentives/marketplace/listings/:listingId', parameters: listingFromBody },
          DeleteListing: { method: 'delete', path: '/incentives/marketplace/listings/:listingId', parameters: listingFromBody },
          GetPublicListing: { method: 'get', path: '/incentives/marketplace/public/listings/:listingId', parameters: listingFromBody },
          RedeemListing: { method: 'post', path: '/incentives/marketplace/redeem', requestBody: listingFromBody },
          GetSettlements: { method: 'get', path: '/incentives/marketplace/settlements', parameters: listingFromBody },
        },
      },
    },
    errors: [422],
    handle: async ({ appId, body, operationKey }) => {
      const { listing } = await service.createListing({
        appId,
        operationKey,
        ...body,
        discount: discountProto(body.discount),
        expiresAt: body.expiresAt ? timestampFromDate(new Date(body.expiresAt)) : undefined,
      });
      return { status: 201, body: { listing: listingJson(listing!) } };
    },
  });

  api.route({
    method: 'get',
    path: '/incentives/marketplace/listings',
    tag: 'Marketplace',
    summary: 'List your own listings, newest first',
    description: 'Published or not; deleted listings are not listed.',
    query: z.object({ ...pageQuery, published: booleanFromQuery() }),
    responses: { 200: { description: 'A page of your listings', schema: listSchema('listings', Listing).openapi('MarketplaceListingList') } },
    handle: async ({ appId, query }) => {
      const res = await service.listListings({ appId, page: pageRequest(query), published: query.published });
      return {
        status: 200,
        body: { listings: res.listings.map(listingJson), pagination: pagination(query, res.page) },
      };
    },
  });

  api.route({
    method: 'get',
    path: '/incentives/marketplace/listings/:listingId',
    tag: 'Marketplace',
    summary: 'Get one of your listings',
    params: listingParams,
    responses: { 200: { description: 'The listing', schema: ListingEnvelope } },
    errors: [404],
    handle: async ({ appId, params }) => {
      const { listing } = await service.getListing({ appId, listingId: params.listingId });
      return { status: 200, body: { listing: listingJson(listing!) } };
    },
  });

  api.route({
    method: 'patch',
    path: '/incentives/marketplace/listings/:listingId',
    tag: 'Marketplace',
    summary: 'Update one of your listings',
    description: 'Only the fields sent change; `expiresAt: null` removes the expiry; `discount` replaces the whole discount. Codes already issued keep their terms.',
    params: listingParams,
    body: z
      .object({
        title: ListingFields.title.optional(),
        description: ListingFields.description.optional(),
        coinCost: ListingFields.coinCost.optional(),
        tokenCost: ListingFields.tokenCost.optional(),
        quantity: ListingFields.quantity.optional(),
        discount: ListingFields.discount.optional(),
        expiresAt: ListingFields.expiresAt.nullable().optional(),
        published: ListingFields.published.optional(),
        codeValidityDays: ListingFields.codeValidityDays.optional(),
      })
      .openapi('UpdateListingRequest'),
    responses: { 200: { description: 'The updated listing', schema: ListingEnvelope } },
    errors: [404, 422],
    handle: async ({ appId, params, body }) => {
      const { listing } = await service.updateListing({
        appId,
        listingId: params.listingId,
        ...body,
        discount: body.discount ? discountProto(body.discount) : undefined,
        expiresAt: body.expiresAt ? timestampFromDate(new Date(body.expiresAt)) : undefined,
        clearExpiresAt: body.expiresAt === null,
      });
      return { status: 200, body: { listing: listingJson(listing!) } };
    },
  });

  api.route({
    method: 'delete',
    path: '/incentives/marketplace/listings/:listingId',
    tag: 'Marketplace',
    summary: 'Withdraw one of your listings',
    description: 'A soft delete: it leaves the marketplace at once; codes already issued stay valid and in the settlement.',
    params: listingParams,
    responses: { 204: { description: 'Deleted' } },
    errors: [404],
    handle: async ({ appId, params }) => {
      await service.deleteListing({ appId, listingId: params.listingId });
      return { status: 204 };
    },
  });

  api.route({
    method: 'get',
    path: '/incentives/marketplace/public/listings',
    tag: 'Marketplace',
    summary: "Browse every app's listings",
    description: 'Published, unexpired listings with codes left, from every app (yours included), newest first. The one read that crosses apps.',
    query: z.object({
      ...pageQuery,
      maxCoinCost: wholeNumberFromQuery('maxCoinCost').openapi({ description: 'Only listings costing at most this many coins.' }),
      maxTokenCost: wholeNumberFromQuery('maxTokenCost').openapi({ description: 'Only listings costing at most this many tokens.' }),
    }),
    responses: {
      200: { description: 'A page of listings', schema: listSchema('listings', PublicListing).openapi('PublicMarketplaceListingList') },
    },
    handle: async ({ appId, query }) => {
      const res = await service.listPublicListings({
        appId,
        page: pageRequest(query),
        maxCoinCost: query.maxCoinCost,
        maxTokenCost: query.maxTokenCost,
      });
      return {
        status: 200,
        body: {
          listings: res.listings.map(publicListingJson),
          pagination: pagination(query, res.page),
        },
      };
    },
  });

  api.route({
    method: 'get',
    path: '/incentives/marketplace/public/listings/:listingId',
    tag: 'Marketplace',
    summary: 'Get one public listing',
    description: 'Any published listing of any app, also when expired or sold out (so a shared link still explains itself); 404 when unpublished or withdrawn.',
    params: listingParams,
    responses: { 200: { description: 'The listing', schema: PublicListingEnvelope } },
    errors: [404],
    handle: async ({ appId, params }) => {
      const { listing } = await service.getPublicListing({ appId, listingId: params.listingId });
      return { status: 200, body: { listing: publicListingJson(listing!) } };
    },
  });

  api.route({
    method: 'post',
    path: '/incentives/marketplace/redeem',
    tag: 'Marketplace',
    summary: 'Redeem a listing for one of your users',
    description:
      'Debits your user\'s coins and tokens and takes one of the listing\'s codes, all or nothing, with the same saga and ' +
      'guarantees as `POST /incentives/redeem` (422 `INSUFFICIENT_BALANCE`, `OUT_OF_STOCK`, `ITEM_UNAVAILABLE` for an expired, ' +
      'unpublished or withdrawn listing; 503 with nothing redeemed when the balance service is down). Issues a unique ' +
      '`MKT-` code to present to the business that owns the listing, and records which app\'s user redeemed which ' +
      'business\'s listing for settlement. Publishes `marketplace.redeemed` (webhook `MARKETPLACE_REDEEMED`, also sent to the listing\'s owner). ' +
      'Retries with the same `Idempotency-Key` make at most one redemption, as for `POST /incentives/redeem`.',
    body: z.object({ listingId: id('Listing id'), userId: id('Your user who redeems (and pays)') }).openapi('RedeemListingRequest'),
    responses: {
      201: {
        description: 'Redeemed',
        schema: z.object({ redemption: MarketplaceRedemption, balance: Balance }).openapi('RedeemListingResponse'),
        links: {
          VerifyCode: { method: 'get', path: '/incentives/marketplace/verify/:id', parameters: { id: '$response.body#/redemption/discountCode' } },
        },
      },
    },
    errors: [404, 422, 503],
    handle: async ({ appId, body, operationKey }) => {
      const res = await service.redeemListing({ appId, listingId: body.listingId, userId: body.userId, operationKey });
      return { status: 201, body: { redemption: marketplaceRedemptionJson(res.redemption!), balance: balanceJson(res.balance) } };
    },
  });

  api.route({
    method: 'get',
    path: '/incentives/marketplace/redemptions',
    tag: 'Marketplace',
    summary: 'List marketplace redemptions you are a party to, newest first',
    description: '`as=provider` (default): codes issued for your listings; `as=redeemer`: codes your users redeemed.',
    query: z.object({
      ...pageQuery,
      as: z.enum(SIDES).default('provider'),
      listingId: id('Only this listing').optional(),
      userId: id('One of your users; only with as=redeemer (ignored with as=provider).').optional(),
    }),
    responses: {
      200: {
        description: 'A page of redemptions',
        schema: listSchema('redemptions', MarketplaceRedemption).openapi('MarketplaceRedemptionList'),
      },
    },
    handle: async ({ appId, query }) => {
      const res = await service.listMarketplaceRedemptions({
        appId,
        page: pageRequest(query),
        side: side(query.as),
        listingId: query.listingId,
        userId: query.userId,
      });
      return {
        status: 200,
        body: {
          redemptions: res.redemptions.map(marketplaceRedemptionJson),
          pagination: pagination(query, res.page),
        },
      };
    },
  });

  api.route({
    method: 'get',
    path: '/incentives/marketplace/settlements',
    tag: 'Marketplace',
    summary: 'What your app and each other app owe each other',
    description:
      'Totals of the codes issued and the coins and tokens they cost, per counterpart app and per listing. `as=provider` ' +
      '(default): your listings, redeemed by other apps\' users (and yours). `as=redeemer`: listings your users redeemed. ' +
      '`listingId` narrows to one listing.',
    query: z.object({ as: z.enum(SIDES).default('provider'), listingId: id('Only this listing').optional() }),
    responses: { 200: { description: 'The settlement', schema: Settlements } },
    handle: async ({ appId, query }) => {
      const res = await service.getSettlements({ appId, side: side(query.as), listingId: query.listingId });
      return { status: 200, body: settlementsJson(res, query.as) };
    },
  });

  api.route({
    method: 'get',
    path: '/incentives/marketplace/verify/:id',
    tag: 'Marketplace',
    summary: 'Verify a marketplace code, or see what a user can afford',
    description:
      'When `{id}` is a marketplace code your app is a party to (you own the listing, or your user redeemed it; any case, ' +
      'dashes optional): `{type: "CODE", valid, code, listingId, status, redeemedAt, expiresAt, …}`. Otherwise `{id}` is ' +
      'taken as one of your user ids: `{type: "USER", userId, balance: {coins, tokens}, listings}` with the public listings ' +
      'that balance covers (paged with `page` and `limit`). A code of two other apps is never confirmed to exist.',
    params: z.object({ id: id('A MKT- code, or one of your user ids') }),
    query: z.object({ ...pageQuery }),
    responses: { 200: { description: 'The code, or the user', schema: Verification } },
    errors: [503],
    handle: async ({ appId, params, query }) => {
      const res = await service.verifyMarketplaceId({ appId, id: params.id, page: pageRequest(query) });
      return { status: 200, body: verificationJson(res, query) };
    },
  });
}
