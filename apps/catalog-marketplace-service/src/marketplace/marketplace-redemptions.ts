import type { Connection, FilterQuery, Model } from 'mongoose';
import type { Outbox } from '@ris/events';
import type { Logger } from '@ris/logging';
import { AppScoped, isDuplicateKeyError, type Page, type PageQuery } from '@ris/mongo';
import type { BalanceAccount, BalanceSnapshot } from '../balances/balance-account';
import { generateMarketplaceCode } from './marketplace-code';
import type { ListingDoc } from './listing.model';
import type { Listings } from './listings';
import { marketplaceRedemptionModel, type MarketplaceRedemptionDoc } from './marketplace-redemption.model';
import { Redeemer } from '../saga/redeemer';
import { marketplaceRedeemed } from '../catalog/catalog-redemption-events';
import { RedemptionSaga, type SagaOptions } from '../saga/redemption-saga';

/** PROVIDER: the caller owns the listings; REDEEMER: the caller's users redeemed. */
export type SettlementSideName = 'PROVIDER' | 'REDEEMER';

const CODE_ATTEMPTS = 5;
const DAY_MS = 86_400_000;

/**
 * Every query on marketplace redemptions carries the caller's app under
 * the key of the side it is on: the redeeming app sees its own users'
 * redemptions (appId), the listing owner those of its listings
 * (listingAppId). Nothing else is ever matched.
 */
export function sideScope(side: SettlementSideName, appId: string): FilterQuery<MarketplaceRedemptionDoc> {
  if (!appId) throw new Error('appId is required for every query');
  return side === 'PROVIDER' ? { listingAppId: appId } : { appId };
}

/** Marketplace redemptions: redeem a listing for a user of the calling app (the saga), and read them from either side. */
export class MarketplaceRedemptions {
  readonly records: AppScoped<MarketplaceRedemptionDoc>;
  readonly model: Model<MarketplaceRedemptionDoc>;
  readonly saga: RedemptionSaga<MarketplaceRedemptionDoc>;
  private readonly redeemer: Redeemer<MarketplaceRedemptionDoc>;

  constructor(
    db: Connection,
    private readonly listings: Listings,
    account: BalanceAccount,
    outbox: Outbox,
    logger: Logger,
    options: SagaOptions,
  ) {
    this.model = marketplaceRedemptionModel(db);
    this.records = new AppScoped(this.model);
    this.saga = new RedemptionSaga(
      {
        name: 'marketplace redemption',
        debitCause: 'MARKETPLACE_REDEMPTION',
        records: this.records,
        stock: listings.stock,
        // The stock belongs to the listing's owner, not to the redeeming app.
        good: (r) => ({ appId: r.listingAppId, id: r.listingId, field: 'listingId' }),
        events: (r, effect) => (effect === 'PUBLISH_CONFIRMED' ? [marketplaceRedeemed(r)] : []),
      },
      account,
      outbox,
      logger,
      options,
    );
    this.redeemer = new Redeemer(this.saga, account, logger);
  }

  /**
   * Debits the calling app's user, takes one of the listing's codes, and
   * issues a MKT- code; all or nothing. With an operation key, at most one
   * per key (see Redeemer.redeem).
   */
  redeem(appId: string, listingId: string, userId: string, operationKey = ''): Promise<{ redemption: MarketplaceRedemptionDoc; balance: BalanceSnapshot | null }> {
    return this.redeemer.redeem({
      appId,
      operationKey,
      idPrefix: 'mkr',
      sameRequest: (record) => record.userId === userId && record.listingId === listingId,
      make: async (id) => {
        const listing = await this.listings.getRedeemable(appId, listingId);
        this.redeemer.refuseIfSoldOut(listing.quantity, listing, { listingId });
        const record = await this.record(appId, id, userId, listing, operationKey);
        return { record, limitedStock: listing.quantity !== -1 };
      },
    });
  }

  /**
   * The RESERVING record under `id`, with its code drawn now (unique across
   * every app). A duplicate of the id itself is raised (the Redeemer reads
   * what is there); a duplicate code is drawn again.
   */
  private async record(appId: string, id: string, userId: string, listing: ListingDoc, operationKey: string): Promise<MarketplaceRedemptionDoc> {
    for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt += 1) {
      const now = new Date();
      try {
        return await this.redeemer.insert({
          _id: id,
          appId,
          userId,
          listingId: listing._id,
          listingAppId: listing.appId,
          listingTitle: listing.title,
          discount: listing.discount,
          discountCode: generateMarketplaceCode(),
          expiresAt: new Date(now.getTime() + listing.codeValidityDays * DAY_MS),
          coinCost: listing.coinCost,
          tokenCost: listing.tokenCost,
          ...this.redeemer.startFields(now, operationKey),
        });
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
        if (await this.model.exists({ _id: id, appId }).exec()) throw err;
        // The code is taken (about one chance in 10^17): draw another.
      }
    }
    throw new Error('could not draw a free marketplace code');
  }

  /** Issued redemptions the caller can see from its side, newest first. */
  async list(
    appId: string,
    side: SettlementSideName,
    page: PageQuery,
    filter: { listingId?: string; userId?: string },
  ): Promise<Page<MarketplaceRedemptionDoc>> {
    const query: FilterQuery<MarketplaceRedemptionDoc> = { ...sideScope(side, appId), state: 'CONFIRMED' };
    if (filter.listingId) query.listingId = filter.listingId;
    // A provider never filters by (nor sees) another app's user ids.
    if (filter.userId && side === 'REDEEMER') query.userId = filter.userId;
    const [items, totalItems] = await Promise.all([
      this.model
        .find(query)
        .sort({ createdAt: -1, _id: -1 })
        .skip((page.page - 1) * page.limit)
        .limit(page.limit)
        .lean<MarketplaceRedemptionDoc[]>()
        .exec(),
      this.model.countDocuments(query).exec(),
    ]);
    return { items, page: page.page, limit: page.limit, totalItems };
  }

  /** An issued code, if the caller is on either side of it (else null: it is none of the caller's business). */
  findCode(appId: string, code: string): Promise<MarketplaceRedemptionDoc | null> {
    return this.model
      .findOne({ discountCode: code, state: 'CONFIRMED', $or: [sideScope('REDEEMER', appId), sideScope('PROVIDER', appId)] })
      .lean<MarketplaceRedemptionDoc>()
      .exec();
  }
}
