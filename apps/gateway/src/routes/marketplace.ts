import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { DEFAULT_CODE_VALIDITY_DAYS, SettlementSide } from '@ris/contracts';
import type { ApiRouter } from '../http/api-router';
import { BalanceAfterRedemption, balanceJson } from '../mappers/catalog.mapper';
import {
  DiscountTypes,
  Discount,
  Listing,
  MarketplaceRedemption,
  PublicListing,
  SIDES,
  Settlements,
  Verification,
  listingJson,
  marketplaceRedemptionJson,
  publicListingJson,
  settlementsJson,
  verificationJson,
} from '../mappers/marketplace.mapper';
import { Pagination, dateTime, id, pageQuery, pageRequest, pagination } from '../openapi/common-schemas';
import { booleanFromQuery, wholeNumberFromQuery } from '../openapi/query-values';
import { days } from '../openapi/number-fields';
import { freeText, label } from '../openapi/text-fields';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';
import { Cost, StockCount } from './catalog';

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

const ListingEnvelope = z.object({ listing: Listing.schema });
const PublicListingEnvelope = z.object({ listing: PublicListing.schema });
const listingParams = z.object({ listingId: id('Listing id') });
const listingFromBody = { listingId: '$response.body#/listing/id' };
const side = (as: (typeof SIDES)[number]) => (as === 'redeemer' ? SettlementSide.REDEEMER : SettlementSide.PROVIDER);
const discountProto = (d: z.output<typeof Discount>) => ({ type: DiscountTypes.value(d.type), value: d.value });
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
    responses: { 200: { description: 'A page of your listings', schema: listSchema('listings', Listing.schema).openapi('MarketplaceListingList') } },
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
      200: { description: 'A page of listings', schema: listSchema('listings', PublicListing.schema).openapi('PublicMarketplaceListingList') },
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
        schema: z.object({ redemption: MarketplaceRedemption.schema, balance: BalanceAfterRedemption }).openapi('RedeemListingResponse'),
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
        schema: listSchema('redemptions', MarketplaceRedemption.schema).openapi('MarketplaceRedemptionList'),
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
    responses: { 200: { description: 'The settlement', schema: Settlements.schema } },
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
