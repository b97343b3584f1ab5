import type { ApiRouter } from '../http/api-router';
import { BalanceAfterRedemption, CatalogItem, Redemption, RedemptionMoves, RedemptionStatuses, balanceJson, catalogItemJson, redemptionJson } from '../mappers/catalog.mapper';
import { Pagination, id, pageQuery, pageRequest, pagination } from '../openapi/common-schemas';
import { booleanFromQuery } from '../openapi/query-values';
import { MAX_AMOUNT, count, wholeAmount } from '../openapi/number-fields';
import { freeText, label } from '../openapi/text-fields';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';

/** Coins and tokens are whole numbers (the ledger keeps no fractions). */
export const Cost = wholeAmount().openapi({ description: `A whole number from 0 to ${MAX_AMOUNT}` });
/** A stock count; -1 means unlimited. */
export const StockCount = count(-1);

const REDEEM_RULES = [
  'All or nothing, as a saga across the catalog and the balance ledger: the redemption is recorded, one unit is reserved',
  '(unless inventory is -1), the coins and tokens are debited, and the redemption is confirmed as PENDING. Any refusal',
  '(422 `INSUFFICIENT_BALANCE`, `OUT_OF_STOCK`, `ITEM_UNAVAILABLE` for an unpublished or deleted item) leaves stock and',
  'balance exactly as they were. If the balance service cannot be reached the answer is 503 and nothing is redeemed:',
  'the unit is returned at once and a debit that may have happened is credited back as soon as the service is back.',
  'Publishes `redemption.created` (webhook `REDEMPTION_CREATED`).',
  'Send an `Idempotency-Key` and retry with it after a 503, a timeout or a dropped connection: a key makes at most one',
  'redemption. A retry returns the redemption its first try made (with the current balance), finishes one whose',
  'service stopped midway, repeats a 422 refusal, or tries again if nothing was taken. 409 `CONFLICT` means retry',
  'shortly: the key is still being worked on, or the last units are held by redemptions in progress that may yet give them back.',
].join(' ');

const ItemEnvelope = z.object({ item: CatalogItem.schema });
const itemParams = z.object({ itemId: id('Catalog item id') });

export function catalogRoutes(api: ApiRouter, clients: ServiceClients): void {
  api.route({
    method: 'get',
    path: '/incentives/catalog',
    tag: 'Catalog',
    summary: 'List catalog items, newest first',
    description: 'Deleted items are not listed.',
    query: z.object({ ...pageQuery, published: booleanFromQuery() }),
    responses: {
      200: { description: 'A page of items', schema: z.object({ items: z.array(CatalogItem.schema), pagination: Pagination }).openapi('CatalogItemList') },
    },
    handle: async ({ appId, query }) => {
      const res = await clients.catalogMarketplace.listCatalogItems({
        appId,
        page: pageRequest(query),
        published: query.published,
      });
      return {
        status: 200,
        body: {
          items: res.items.map(catalogItemJson),
          pagination: pagination(query, res.page),
        },
      };
    },
  });

  api.route({
    method: 'post',
    path: '/incentives/catalog',
    tag: 'Catalog',
    summary: 'Create a catalog item',
    body: z
      .object({
        name: label(),
        description: freeText(2000).optional(),
        coinCost: Cost,
        tokenCost: Cost.optional().openapi({ default: 0 }),
        inventory: StockCount.optional().openapi({ default: -1, description: '-1 means unlimited' }),
        published: z.boolean().optional().openapi({ default: false }),
      })
      .openapi('CreateCatalogItemRequest'),
    responses: {
      201: {
        description: 'Created',
        schema: ItemEnvelope,
        links: {
          GetItem: { method: 'get', path: '/incentives/catalog/:itemId', parameters: { itemId: '$response.body#/item/id' } },
          UpdateItem: { method: 'patch', path: '/incentives/catalog/:itemId', parameters: { itemId: '$response.body#/item/id' } },
          DeleteItem: { method: 'delete', path: '/incentives/catalog/:itemId', parameters: { itemId: '$response.body#/item/id' } },
          RedeemItem: { method: 'post', path: '/incentives/redeem', requestBody: { itemId: '$response.body#/item/id' } },
        },
      },
    },
    handle: async ({ appId, body, operationKey }) => {
      const { item } = await clients.catalogMarketplace.createCatalogItem({ appId, ...body, operationKey });
      return { status: 201, body: { item: catalogItemJson(item!) } };
    },
  });

  api.route({
    method: 'get',
    path: '/incentives/catalog/:itemId',
    tag: 'Catalog',
    summary: 'Get a catalog item',
    params: itemParams,
    responses: { 200: { description: 'The item', schema: ItemEnvelope } },
    errors: [404],
    handle: async ({ appId, params }) => {
      const { item } = await clients.catalogMarketplace.getCatalogItem({ appId, itemId: params.itemId });
      return { status: 200, body: { item: catalogItemJson(item!) } };
    },
  });

  api.route({
    method: 'patch',
    path: '/incentives/catalog/:itemId',
    tag: 'Catalog',
    summary: 'Update a catalog item',
    description:
      'Only the fields sent change. `inventory` sets the count of units left (redemptions in progress keep the units they hold). ' +
      'Redemptions already made keep the name and costs they were made at.',
    params: itemParams,
    body: z
      .object({
        name: label().optional(),
        description: freeText(2000).optional(),
        coinCost: Cost.optional(),
        tokenCost: Cost.optional(),
        inventory: StockCount.optional(),
        published: z.boolean().optional(),
      })
      .openapi('UpdateCatalogItemRequest'),
    responses: { 200: { description: 'The updated item', schema: ItemEnvelope } },
    errors: [404],
    handle: async ({ appId, params, body }) => {
      const { item } = await clients.catalogMarketplace.updateCatalogItem({ appId, itemId: params.itemId, ...body });
      return { status: 200, body: { item: catalogItemJson(item!) } };
    },
  });

  api.route({
    method: 'delete',
    path: '/incentives/catalog/:itemId',
    tag: 'Catalog',
    summary: 'Delete a catalog item',
    description: 'A soft delete: the item is no longer listed, readable or redeemable; redemptions of it keep it in their history.',
    params: itemParams,
    responses: { 204: { description: 'Deleted' } },
    errors: [404],
    handle: async ({ appId, params }) => {
      await clients.catalogMarketplace.deleteCatalogItem({ appId, itemId: params.itemId });
      return { status: 204 };
    },
  });

  api.route({
    method: 'post',
    path: '/incentives/redeem',
    tag: 'Catalog',
    summary: 'Redeem a catalog item for a user',
    description: REDEEM_RULES,
    body: z.object({ userId: id('The user who redeems (and pays)'), itemId: id('Catalog item id') }).openapi('RedeemCatalogItemRequest'),
    responses: {
      201: {
        description: 'Redeemed: the redemption is PENDING until you fulfil or cancel it',
        schema: z.object({ redemption: Redemption.schema, balance: BalanceAfterRedemption }).openapi('RedeemCatalogItemResponse'),
        links: {
          UpdateRedemption: {
            method: 'patch',
            path: '/incentives/redemptions/:redemptionId',
            parameters: { redemptionId: '$response.body#/redemption/id' },
          },
        },
      },
    },
    errors: [404, 422, 503],
    handle: async ({ appId, body, operationKey }) => {
      const res = await clients.catalogMarketplace.redeemCatalogItem({ appId, userId: body.userId, itemId: body.itemId, operationKey });
      return { status: 201, body: { redemption: redemptionJson(res.redemption!), balance: balanceJson(res.balance) } };
    },
  });

  api.route({
    method: 'get',
    path: '/incentives/redemptions',
    tag: 'Catalog',
    summary: 'List catalog redemptions, newest first',
    query: z.object({
      ...pageQuery,
      userId: id('Only this user').optional(),
      itemId: id('Only this item').optional(),
      status: RedemptionStatuses.schema.optional(),
    }),
    responses: {
      200: {
        description: 'A page of redemptions',
        schema: z.object({ redemptions: z.array(Redemption.schema), pagination: Pagination }).openapi('RedemptionList'),
      },
    },
    handle: async ({ appId, query }) => {
      const res = await clients.catalogMarketplace.listRedemptions({
        appId,
        page: pageRequest(query),
        userId: query.userId,
        itemId: query.itemId,
        status: RedemptionStatuses.value(query.status),
      });
      return {
        status: 200,
        body: {
          redemptions: res.redemptions.map(redemptionJson),
          pagination: pagination(query, res.page),
        },
      };
    },
  });

  api.route({
    method: 'patch',
    path: '/incentives/redemptions/:redemptionId',
    tag: 'Catalog',
    summary: 'Fulfil or cancel a redemption',
    description:
      'Only a PENDING redemption moves (409 `INVALID_TRANSITION` otherwise; of two concurrent requests one wins). ' +
      'CANCELLED credits the coins and tokens back and returns the unit to stock, each exactly once. If the balance ' +
      'service cannot be reached the answer is 503 and the redemption already reads CANCELLED: the refund is finished ' +
      'by repeating the request or, shortly, by the service itself. Publishes `redemption.fulfilled` or `redemption.cancelled`.',
    params: z.object({ redemptionId: id('Redemption id') }),
    body: z.object({ status: RedemptionMoves.schema }).openapi('UpdateRedemptionRequest'),
    responses: { 200: { description: 'The redemption after the change', schema: z.object({ redemption: Redemption.schema }) } },
    errors: [404, 409, 503],
    handle: async ({ appId, params, body }) => {
      const { redemption } = await clients.catalogMarketplace.updateRedemptionStatus({
        appId,
        redemptionId: params.redemptionId,
        status: RedemptionMoves.value(body.status),
      });
      return { status: 200, body: { redemption: redemptionJson(redemption!) } };
    },
  });
}
