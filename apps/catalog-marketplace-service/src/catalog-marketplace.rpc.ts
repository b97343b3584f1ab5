import type { ServiceImpl } from '@connectrpc/connect';
import type { CatalogMarketplaceService } from '@ris/contracts';
import { catalogRpc } from './catalog/catalog.rpc';
import type { CatalogItems } from './catalog/catalog-items';
import type { CatalogRedemptions } from './catalog/catalog-redemptions';
import { marketplaceRpc } from './marketplace/marketplace.rpc';
import type { BalanceAccount } from './balances/balance-account';
import type { Listings } from './marketplace/listings';
import type { MarketplaceRedemptions } from './marketplace/marketplace-redemptions';
import type { Settlements } from './marketplace/settlements';

export interface CatalogMarketplaceDeps {
  items: CatalogItems;
  catalogRedemptions: CatalogRedemptions;
  listings: Listings;
  marketplaceRedemptions: MarketplaceRedemptions;
  settlements: Settlements;
  account: BalanceAccount;
}

/** The whole Connect service: the catalog half and the marketplace half. */
export function catalogMarketplaceRpc(deps: CatalogMarketplaceDeps): ServiceImpl<typeof CatalogMarketplaceService> {
  return {
    ...catalogRpc(deps.items, deps.catalogRedemptions),
    ...marketplaceRpc({ listings: deps.listings, redemptions: deps.marketplaceRedemptions, settlements: deps.settlements, account: deps.account }),
  };
}
