import type { Logger } from '@ris/logging';
import type { Page, PageQuery } from '@ris/mongo';
import type { BalanceAccount, BalanceSnapshot } from '../balances/balance-account';
import { Redeemer } from '../saga/redeemer';
import { RedemptionSaga, type SagaOptions } from '../saga/redemption-saga';
import type { ListingDoc } from './listing.model';
import type { Listings } from './listings';
import { generateMarketplaceCode } from './marketplace-code';
import type { MarketplaceRedemptionDoc } from './marketplace-redemption.model';
import type { MarketplaceRedemptionRepository, SettlementSideName } from './marketplace-redemption.repository';
import { marketplaceRedeemed } from './marketplace-redemption-events';

const CODE_ATTEMPTS = 5;
const DAY_MS = 86_400_000;

/** Marketplace redemptions: redeem a listing for a user of the calling app (the saga), and read them from either side. */
export class MarketplaceRedemptions {
  readonly saga: RedemptionSaga<MarketplaceRedemptionDoc>;
  private readonly redeemer: Redeemer<MarketplaceRedemptionDoc>;

  constructor(
    private readonly records: MarketplaceRedemptionRepository,
    private readonly listings: Listings,
    account: BalanceAccount,
    logger: Logger,
    options: SagaOptions,
  ) {
    this.saga = new RedemptionSaga(
      {
        name: 'marketplace redemption',
        debitCause: 'MARKETPLACE_REDEMPTION',
        records,
        stock: listings.stock,
        // The stock belongs to the listing's owner, not to the redeeming app.
        good: (r) => ({ appId: r.listingAppId, id: r.listingId, field: 'listingId' }),
        events: (r, effect) => (effect === 'PUBLISH_CONFIRMED' ? [marketplaceRedeemed(r)] : []),
      },
      account,
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
        return record && { record, limitedStock: listing.quantity !== -1 };
      },
    });
  }

  /**
   * The RESERVING record under `id`, with its code drawn now (unique across
   * every app); null when a record under the id exists already (the
   * Redeemer reads what is there). A code taken already is drawn again.
   */
  private async record(appId: string, id: string, userId: string, listing: ListingDoc, operationKey: string): Promise<MarketplaceRedemptionDoc | null> {
    for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt += 1) {
      const now = new Date();
      const inserted = await this.redeemer.insert({
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
      if (inserted) return inserted;
      if (await this.records.findById(appId, id)) return null;
      // The code is taken (about one chance in 10^17): draw another.
    }
    throw new Error('could not draw a free marketplace code');
  }

  /** Issued redemptions the caller can see from its side, newest first. */
  list(
    appId: string,
    side: SettlementSideName,
    page: PageQuery,
    filter: { listingId?: string; userId?: string },
  ): Promise<Page<MarketplaceRedemptionDoc>> {
    return this.records.page(appId, side, filter, page);
  }

  /** An issued code, if the caller is on either side of it (else null: it is none of the caller's business). */
  findCode(appId: string, code: string): Promise<MarketplaceRedemptionDoc | null> {
    return this.records.issuedCode(appId, code);
  }
}
