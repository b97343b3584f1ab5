import type { Listings } from './listings';
import type { MarketplaceRedemptionRepository, SettlementSideName } from './marketplace-redemption.repository';

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
    private readonly redemptions: MarketplaceRedemptionRepository,
    private readonly listings: Listings,
  ) {}

  async view(appId: string, side: SettlementSideName, listingId?: string): Promise<SettlementView> {
    const rows = await this.redemptions.settlementRows(appId, side, listingId);
    const titles = await this.listings.titles([...new Set(rows.map((r) => r.listingId))]);
    const byApp = new Map<string, CounterpartSettlement>();
    const totals = zero();
    for (const { appId: other, listingId: listing, redemptions, coins, tokens } of rows) {
      const t = { redemptions, coins, tokens };
      let app = byApp.get(other);
      if (!app) byApp.set(other, (app = { appId: other, totals: zero(), listings: [] }));
      app.listings.push({ listingId: listing, listingTitle: titles.get(listing) ?? '', totals: t });
      add(app.totals, t);
      add(totals, t);
    }
    const counterparts = [...byApp.values()].sort((a, b) => b.totals.redemptions - a.totals.redemptions || a.appId.localeCompare(b.appId));
    for (const app of counterparts) app.listings.sort((a, b) => b.totals.redemptions - a.totals.redemptions || a.listingId.localeCompare(b.listingId));
    return { side, totals, counterparts };
  }
}
