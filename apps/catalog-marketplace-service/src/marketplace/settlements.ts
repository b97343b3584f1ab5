import type { FilterQuery, Model, PipelineStage } from 'mongoose';
import type { Listings } from './listings';
import type { MarketplaceRedemptionDoc } from './marketplace-redemption.model';
import { sideScope, type SettlementSideName } from './marketplace-redemptions';

export interface SettlementTotals {
  redemptions: number;
  coins: number;
  tokens: number;
}

export interface ListingSettlement {
  listingId: string;
  listingTitle: string;
  totals: SettlementTotals;
}

export interface CounterpartSettlement {
  appId: string;
  totals: SettlementTotals;
  listings: ListingSettlement[];
}

export interface SettlementView {
  side: SettlementSideName;
  totals: SettlementTotals;
  counterparts: CounterpartSettlement[];
}

type GroupKey = { app: string; listing: string };

const zero = (): SettlementTotals => ({ redemptions: 0, coins: 0, tokens: 0 });
const add = (into: SettlementTotals, from: SettlementTotals) => {
  into.redemptions += from.redemptions;
  into.coins += from.coins;
  into.tokens += from.tokens;
};

/**
 * What each pair of apps owes the other: issued marketplace redemptions
 * (codes), and the coins and tokens they cost, per counterpart app and
 * listing. Computed from the redemptions themselves, so it is exact and
 * needs no counters kept in step with the saga.
 */
export class Settlements {
  constructor(
    private readonly redemptions: Model<MarketplaceRedemptionDoc>,
    private readonly listings: Listings,
  ) {}

  async view(appId: string, side: SettlementSideName, listingId?: string): Promise<SettlementView> {
    const match: FilterQuery<MarketplaceRedemptionDoc> = { ...sideScope(side, appId), state: 'CONFIRMED' };
    if (listingId) match.listingId = listingId;
    const counterpart = side === 'PROVIDER' ? '$appId' : '$listingAppId';
    const sum = async (value: 1 | string) => {
      const pipeline: PipelineStage[] = [{ $match: match }, { $group: { _id: { app: counterpart, listing: '$listingId' }, v: { $sum: value } } }];
      return this.redemptions.aggregate<{ _id: GroupKey; v: number }>(pipeline).exec();
    };
    // One accumulator per aggregation: FerretDB v1 computes only the first
    // accumulator of a $group correctly (the others come back 0).
    const [counts, coins, tokens] = await Promise.all([sum(1), sum('$coinCost'), sum('$tokenCost')]);

    const rows = new Map<string, { key: GroupKey; totals: SettlementTotals }>();
    const row = (key: GroupKey) => {
      const id = `${key.app}\u0000${key.listing}`;
      let found = rows.get(id);
      if (!found) rows.set(id, (found = { key, totals: zero() }));
      return found.totals;
    };
    for (const c of counts) row(c._id).redemptions = c.v;
    for (const c of coins) row(c._id).coins = c.v;
    for (const c of tokens) row(c._id).tokens = c.v;

    const titles = await this.listings.titles([...new Set([...rows.values()].map((r) => r.key.listing))]);
    const byApp = new Map<string, CounterpartSettlement>();
    const totals = zero();
    for (const { key, totals: t } of rows.values()) {
      let app = byApp.get(key.app);
      if (!app) byApp.set(key.app, (app = { appId: key.app, totals: zero(), listings: [] }));
      app.listings.push({ listingId: key.listing, listingTitle: titles.get(key.listing) ?? '', totals: t });
      add(app.totals, t);
      add(totals, t);
    }
    const counterparts = [...byApp.values()].sort((a, b) => b.totals.redemptions - a.totals.redemptions || a.appId.localeCompare(b.appId));
    for (const app of counterparts) app.listings.sort((a, b) => b.totals.redemptions - a.totals.redemptions || a.listingId.localeCompare(b.listingId));
    return { side, totals, counterparts };
  }
}
