import type { ServiceImpl } from '@connectrpc/connect';
import { CatalogMarketplaceService } from '@ris/contracts';
import { rpcService, type RpcService } from '@ris/rpc';
import type { CatalogMarketplaceModules } from './catalog-marketplace-modules';
import { catalogCalls } from './catalog/catalog.rpc';
import { marketplaceCalls } from './marketplace/marketplace.rpc';

/**
 * The whole service at its edge: the catalog half and the marketplace
 * half. Every call acts for the app of its request (tenantOf), so none is
 * declared unscoped: the public listing reads (ListPublicListings,
 * GetPublicListing, and verify's affordable listings) read every app's
 * listings by design, but for a calling app, whose appId is required as
 * any other's (the repository names those reads across apps).
 */
export function catalogMarketplaceService(modules: CatalogMarketplaceModules): RpcService {
  const impl: ServiceImpl<typeof CatalogMarketplaceService> = {
    ...catalogCalls(modules.items, modules.catalogRedemptions),
    ...marketplaceCalls({
      listings: modules.listings,
      redemptions: modules.marketplaceRedemptions,
      settlements: modules.settlements,
      account: modules.account,
    }),
  };
  return rpcService(CatalogMarketplaceService, impl, { tenant: { unscoped: {} } });
}
