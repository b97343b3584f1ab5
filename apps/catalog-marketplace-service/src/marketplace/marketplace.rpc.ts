import { create } from '@bufbuild/protobuf';
import { timestampDate, timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { ServiceImpl } from '@connectrpc/connect';
import {
  DiscountType,
  ListingSchema,
  MarketplaceRedemptionSchema,
  MarketplaceRedemptionStatus,
  SettlementSide,
  enumName,
  enumValue,
  type CatalogMarketplaceService,
  type Discount,
  type Listing,
  type MarketplaceRedemption,
} from '@ris/contracts';
import { invalidArgument, pageFromRequest, pageReply, requiredField, tenantOf } from '@ris/rpc';
import type { BalanceAccount } from '../balances/balance-account';
import { balanceToProto } from '../balances/balances.rpc';
import type { CatalogMethod } from '../catalog/catalog.rpc';
import type { DiscountDoc, DiscountTypeName, ListingDoc } from './listing.model';
import type { Listings } from './listings';
import type { MarketplaceRedemptionDoc } from './marketplace-redemption.model';
import type { SettlementSideName } from './marketplace-redemption.repository';
import type { MarketplaceRedemptions } from './marketplace-redemptions';
import { verifyMarketplaceId } from './marketplace-verify';
import type { Settlements, SettlementTotals } from './settlements';

type Service = ServiceImpl<typeof CatalogMarketplaceService>;
export type MarketplaceCalls = Omit<Service, CatalogMethod>;

const time = (date: Date | null) => (date ? timestampFromDate(date) : undefined);

const discountToProto = (d: DiscountDoc) => ({ type: enumValue(DiscountType, d.type), value: d.value });

function discountFromProto(discount: Discount | undefined): DiscountDoc | undefined {
  if (!discount) return undefined;
  const type = enumName(DiscountType, discount.type) as DiscountTypeName | undefined;
  if (!type) throw invalidArgument('discount.type must be PERCENT or FIXED');
  return { type, value: discount.value };
}

export function listingToProto(doc: ListingDoc): Listing {
  return create(ListingSchema, {
    id: doc._id,
    appId: doc.appId,
    title: doc.title,
    description: doc.description,
    coinCost: doc.coinCost,
    tokenCost: doc.tokenCost,
    quantity: doc.quantity,
    discount: discountToProto(doc.discount),
    expiresAt: time(doc.expiresAt),
    published: doc.published,
    codeValidityDays: doc.codeValidityDays,
    createdAt: time(doc.createdAt),
    updatedAt: time(doc.updatedAt),
  });
}

const codeStatus = (doc: MarketplaceRedemptionDoc) =>
  doc.expiresAt.getTime() > Date.now() ? MarketplaceRedemptionStatus.ACTIVE : MarketplaceRedemptionStatus.EXPIRED;

/** The owner of the listing sees which app redeemed, not which of that app's users. */
export function marketplaceRedemptionToProto(doc: MarketplaceRedemptionDoc, side: SettlementSideName): MarketplaceRedemption {
  return create(MarketplaceRedemptionSchema, {
    id: doc._id,
    listingId: doc.listingId,
    listingAppId: doc.listingAppId,
    appId: doc.appId,
    userId: side === 'REDEEMER' ? doc.userId : undefined,
    discountCode: doc.discountCode,
    expiresAt: time(doc.expiresAt),
    createdAt: time(doc.createdAt),
    status: codeStatus(doc),
    listingTitle: doc.listingTitle,
    coinCost: doc.coinCost,
    tokenCost: doc.tokenCost,
    discount: discountToProto(doc.discount),
  });
}

const sideFromProto = (side: SettlementSide): SettlementSideName => (side === SettlementSide.REDEEMER ? 'REDEEMER' : 'PROVIDER');
const totalsToProto = (t: SettlementTotals) => ({ redemptions: t.redemptions, coins: t.coins, tokens: t.tokens });

/** Listings, the public marketplace, marketplace redemptions, verification and settlements, proto ⇄ domain. */
export function marketplaceCalls(deps: {
  listings: Listings;
  redemptions: MarketplaceRedemptions;
  settlements: Settlements;
  account: BalanceAccount;
}): MarketplaceCalls {
  const { listings, redemptions, settlements } = deps;
  return {
    async createListing(req, ctx) {
      const discount = discountFromProto(req.discount);
      if (!discount) throw invalidArgument('discount is required');
      const listing = await listings.create(tenantOf(ctx), {
        title: req.title,
        description: req.description,
        coinCost: req.coinCost,
        tokenCost: req.tokenCost,
        quantity: req.quantity,
        discount,
        expiresAt: req.expiresAt ? timestampDate(req.expiresAt) : null,
        published: req.published,
        codeValidityDays: req.codeValidityDays,
      }, req.operationKey);
      return { listing: listingToProto(listing) };
    },

    async getListing(req, ctx) {
      return { listing: listingToProto(await listings.get(tenantOf(ctx), requiredField(req.listingId, 'listingId'))) };
    },

    async listListings(req, ctx) {
      const page = await listings.list(tenantOf(ctx), pageFromRequest(req.page), req.published);
      return { listings: page.items.map(listingToProto), page: pageReply(page) };
    },

    async updateListing(req, ctx) {
      const listing = await listings.update(tenantOf(ctx), requiredField(req.listingId, 'listingId'), {
        title: req.title,
        description: req.description,
        coinCost: req.coinCost,
        tokenCost: req.tokenCost,
        quantity: req.quantity,
        discount: discountFromProto(req.discount),
        expiresAt: req.clearExpiresAt ? null : req.expiresAt ? timestampDate(req.expiresAt) : undefined,
        published: req.published,
        codeValidityDays: req.codeValidityDays,
      });
      return { listing: listingToProto(listing) };
    },

    async deleteListing(req, ctx) {
      await listings.delete(tenantOf(ctx), requiredField(req.listingId, 'listingId'));
      return {};
    },

    // The public reads are made for the calling app (its appId required, as
    // every call's) but read every app's listings: the marketplace is public.
    async listPublicListings(req) {
      const page = await listings.publicPage(pageFromRequest(req.page), { maxCoinCost: req.maxCoinCost, maxTokenCost: req.maxTokenCost });
      return { listings: page.items.map(listingToProto), page: pageReply(page) };
    },

    async getPublicListing(req) {
      return { listing: listingToProto(await listings.getPublic(requiredField(req.listingId, 'listingId'))) };
    },

    async redeemListing(req, ctx) {
      const { redemption, balance } = await redemptions.redeem(
        tenantOf(ctx),
        requiredField(req.listingId, 'listingId'),
        requiredField(req.userId, 'userId'),
        req.operationKey,
      );
      return { redemption: marketplaceRedemptionToProto(redemption, 'REDEEMER'), balance: balanceToProto(balance) };
    },

    async listMarketplaceRedemptions(req, ctx) {
      const side = sideFromProto(req.side);
      const page = await redemptions.list(tenantOf(ctx), side, pageFromRequest(req.page), {
        listingId: req.listingId,
        userId: req.userId,
      });
      return {
        redemptions: page.items.map((r) => marketplaceRedemptionToProto(r, side)),
        page: pageReply(page),
      };
    },

    async verifyMarketplaceId(req, ctx) {
      const result = await verifyMarketplaceId(deps, tenantOf(ctx), requiredField(req.id, 'id'), pageFromRequest(req.page));
      if (result.type === 'CODE') {
        const r = result.redemption;
        return {
          result: {
            case: 'code',
            value: {
              valid: result.valid,
              code: r.discountCode,
              listingId: r.listingId,
              status: codeStatus(r),
              redeemedAt: time(r.createdAt),
              expiresAt: time(r.expiresAt),
              discount: discountToProto(r.discount),
              listingAppId: r.listingAppId,
            },
          },
        };
      }
      const { listings: page } = result;
      return {
        result: {
          case: 'user',
          value: {
            userId: result.userId,
            balance: balanceToProto(result.balance),
            listings: page.items.map(listingToProto),
            page: pageReply(page),
          },
        },
      };
    },

    async getSettlements(req, ctx) {
      const side = sideFromProto(req.side);
      const view = await settlements.view(tenantOf(ctx), side, req.listingId);
      return {
        side: enumValue(SettlementSide, view.side),
        totals: totalsToProto(view.totals),
        counterparts: view.counterparts.map((c) => ({
          appId: c.appId,
          totals: totalsToProto(c.totals),
          listings: c.listings.map((l) => ({ listingId: l.listingId, listingTitle: l.listingTitle, totals: totalsToProto(l.totals) })),
        })),
      };
    },
  };
}
