import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { ServiceImpl } from '@connectrpc/connect';
import {
  CatalogItemSchema,
  RedemptionSchema,
  RedemptionStatus,
  enumName,
  enumValue,
  type CatalogItem,
  type CatalogMarketplaceService,
  type CreateCatalogItemRequest,
  type Redemption,
  type UpdateCatalogItemRequest,
} from '@ris/contracts';
import { invalidArgument, messageFields, pageFromRequest, pageReply, requiredField, tenantOf } from '@ris/rpc';
import { balanceToProto } from '../balances/balances.rpc';
import { publicStatus, type PublicRedemptionStatus } from '../saga/redemption-saga-machine';
import type { CatalogItemDoc } from './catalog-item.model';
import type { CatalogItemInput, CatalogItemPatch, CatalogItems } from './catalog-items';
import type { RedemptionDoc } from './catalog-redemption.model';
import type { CatalogRedemptions } from './catalog-redemptions';

type Service = ServiceImpl<typeof CatalogMarketplaceService>;
/** The service's catalog half; the marketplace half (marketplace/marketplace.rpc.ts) is the rest. */
export type CatalogMethod =
  | 'createCatalogItem'
  | 'getCatalogItem'
  | 'listCatalogItems'
  | 'updateCatalogItem'
  | 'deleteCatalogItem'
  | 'redeemCatalogItem'
  | 'listRedemptions'
  | 'updateRedemptionStatus';
export type CatalogCalls = Pick<Service, CatalogMethod>;

const time = (date: Date | null) => (date ? timestampFromDate(date) : undefined);

export function itemToProto(doc: CatalogItemDoc): CatalogItem {
  // The fields of the same name as they are; only the id is named.
  return create(CatalogItemSchema, { ...messageFields(doc), id: doc._id });
}

export function redemptionToProto(doc: RedemptionDoc): Redemption {
  return create(RedemptionSchema, {
    id: doc._id,
    userId: doc.userId,
    itemId: doc.itemId,
    itemName: doc.itemName,
    coinCost: doc.coinCost,
    tokenCost: doc.tokenCost,
    status: enumValue(RedemptionStatus, publicStatus(doc.state)),
    redeemedAt: time(doc.createdAt),
    fulfilledAt: time(doc.fulfilledAt),
    cancelledAt: time(doc.cancelledAt),
    updatedAt: time(doc.updatedAt),
  });
}

/** An item's own fields of a create or update request: proto and domain name them alike, and unset stays unset. */
function itemFields(req: CreateCatalogItemRequest): CatalogItemInput;
function itemFields(req: UpdateCatalogItemRequest): CatalogItemPatch;
function itemFields(req: CatalogItemPatch): CatalogItemPatch {
  const { name, description, coinCost, tokenCost, inventory, published } = req;
  return { name, description, coinCost, tokenCost, inventory, published };
}

/** The catalog and its redemptions, proto ⇄ domain. */
export function catalogCalls(items: CatalogItems, redemptions: CatalogRedemptions): CatalogCalls {
  return {
    async createCatalogItem(req, ctx) {
      const item = await items.create(tenantOf(ctx), itemFields(req), req.operationKey);
      return { item: itemToProto(item) };
    },

    async getCatalogItem(req, ctx) {
      return { item: itemToProto(await items.get(tenantOf(ctx), requiredField(req.itemId, 'itemId'))) };
    },

    async listCatalogItems(req, ctx) {
      const page = await items.list(tenantOf(ctx), pageFromRequest(req.page), req.published);
      return { items: page.items.map(itemToProto), page: pageReply(page) };
    },

    async updateCatalogItem(req, ctx) {
      const item = await items.update(tenantOf(ctx), requiredField(req.itemId, 'itemId'), itemFields(req));
      return { item: itemToProto(item) };
    },

    async deleteCatalogItem(req, ctx) {
      await items.delete(tenantOf(ctx), requiredField(req.itemId, 'itemId'));
      return {};
    },

    async redeemCatalogItem(req, ctx) {
      const { redemption, balance } = await redemptions.redeem(
        tenantOf(ctx),
        requiredField(req.userId, 'userId'),
        requiredField(req.itemId, 'itemId'),
        req.operationKey,
      );
      return { redemption: redemptionToProto(redemption), balance: balanceToProto(balance) };
    },

    async listRedemptions(req, ctx) {
      const page = await redemptions.list(tenantOf(ctx), pageFromRequest(req.page), {
        userId: req.userId,
        itemId: req.itemId,
        status: enumName(RedemptionStatus, req.status) as PublicRedemptionStatus | undefined,
      });
      return {
        redemptions: page.items.map(redemptionToProto),
        page: pageReply(page),
      };
    },

    async updateRedemptionStatus(req, ctx) {
      const target = enumName(RedemptionStatus, req.status);
      if (target !== 'FULFILLED' && target !== 'CANCELLED') throw invalidArgument('status must be FULFILLED or CANCELLED');
      const redemption = await redemptions.changeStatus(tenantOf(ctx), requiredField(req.redemptionId, 'redemptionId'), target);
      return { redemption: redemptionToProto(redemption) };
    },
  };
}
