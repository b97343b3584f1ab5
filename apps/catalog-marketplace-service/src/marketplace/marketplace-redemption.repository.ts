import type { Connection, FilterQuery, PipelineStage } from 'mongoose';
import type { Outbox } from '@ris/events';
import type { Page, PageQuery } from '@ris/mongo';
import { SagaRecordRepository } from '../saga/saga-record.repository';
import { marketplaceRedemptionModel, type MarketplaceRedemptionDoc } from './marketplace-redemption.model';

/** PROVIDER: the caller owns the listings; REDEEMER: the caller's users redeemed. */
export type SettlementSideName = 'PROVIDER' | 'REDEEMER';

/** The issued redemptions of one counterpart app and listing, as seen from one side. */
export interface SettlementRow {
  /** The other app: the redeeming one for a provider, the listing's owner for a redeemer. */
  appId: string;
  listingId: string;
  redemptions: number;
  coins: number;
  tokens: number;
}

type GroupKey = { app: string; listing: string };

/**
 * Marketplace redemptions: their saga's writes (SagaRecordRepository), and
 * the reads of either party. Those are not scoped by the redeeming app
 * (appId) alone: every one carries the caller's app under the key of the
 * side it is on, the redeeming app seeing its own users' redemptions
 * (appId), the listing owner those of its listings (listingAppId).
 * Nothing else is ever matched.
 */
export class MarketplaceRedemptionRepository extends SagaRecordRepository<MarketplaceRedemptionDoc> {
  constructor(db: Connection, outbox: Outbox) {
    super(marketplaceRedemptionModel(db), outbox);
  }

  private ofSide(side: SettlementSideName, appId: string): FilterQuery<MarketplaceRedemptionDoc> {
    if (!appId) throw new Error('appId is required for every query');
    return side === 'PROVIDER' ? { listingAppId: appId } : { appId };
  }

  /** Issued redemptions the caller sees from its side, newest first (ties by id); a provider never filters by (nor sees) another app's user ids. */
  async page(
    appId: string,
    side: SettlementSideName,
    filter: { listingId?: string; userId?: string },
    page: PageQuery,
  ): Promise<Page<MarketplaceRedemptionDoc>> {
    const query: FilterQuery<MarketplaceRedemptionDoc> = { ...this.ofSide(side, appId), state: 'CONFIRMED' };
    if (filter.listingId) query.listingId = filter.listingId;
    if (filter.userId && side === 'REDEEMER') query.userId = filter.userId;
    return this.pageAcrossApps(query, { createdAt: -1, _id: -1 }, page);
  }

  /** An issued code, if the caller is on either side of it (else null: it is none of the caller's business). */
  issuedCode(appId: string, code: string): Promise<MarketplaceRedemptionDoc | null> {
    return this.acrossApps
      .findOne({ discountCode: code, state: 'CONFIRMED', $or: [this.ofSide('REDEEMER', appId), this.ofSide('PROVIDER', appId)] })
      .lean<MarketplaceRedemptionDoc>()
      .exec();
  }

  /** The caller's issued redemptions from its side, added up per counterpart app and listing (of one listing, if given). */
  async settlementRows(appId: string, side: SettlementSideName, listingId?: string): Promise<SettlementRow[]> {
    const match: FilterQuery<MarketplaceRedemptionDoc> = { ...this.ofSide(side, appId), state: 'CONFIRMED' };
    if (listingId) match.listingId = listingId;
    const counterpart = side === 'PROVIDER' ? '$appId' : '$listingAppId';
    const sum = async (value: 1 | string) => {
      const pipeline: PipelineStage[] = [{ $match: match }, { $group: { _id: { app: counterpart, listing: '$listingId' }, v: { $sum: value } } }];
      return this.acrossApps.aggregate<{ _id: GroupKey; v: number }>(pipeline).exec();
    };
    // One accumulator per aggregation: FerretDB v1 computes only the first
    // accumulator of a $group correctly (the others come back 0).
    const [counts, coins, tokens] = await Promise.all([sum(1), sum('$coinCost'), sum('$tokenCost')]);

    const rows = new Map<string, SettlementRow>();
    const row = (key: GroupKey) => {
      const id = `${key.app}\u0000${key.listing}`;
      let found = rows.get(id);
      if (!found) rows.set(id, (found = { appId: key.app, listingId: key.listing, redemptions: 0, coins: 0, tokens: 0 }));
      return found;
    };
    for (const c of counts) row(c._id).redemptions = c.v;
    for (const c of coins) row(c._id).coins = c.v;
    for (const c of tokens) row(c._id).tokens = c.v;
    return [...rows.values()];
  }
}
