import type { Connection } from 'mongoose';
import type { Outbox } from '@ris/events';
import type { Logger } from '@ris/logging';
import type { BalanceAccount } from './balances/balance-account';
import { CatalogItemRepository } from './catalog/catalog-item.repository';
import { CatalogItems } from './catalog/catalog-items';
import { CatalogRedemptionRepository } from './catalog/catalog-redemption.repository';
import { CatalogRedemptions } from './catalog/catalog-redemptions';
import { ListingRepository } from './marketplace/listing.repository';
import { Listings } from './marketplace/listings';
import { MarketplaceRedemptionRepository } from './marketplace/marketplace-redemption.repository';
import { MarketplaceRedemptions } from './marketplace/marketplace-redemptions';
import { Settlements } from './marketplace/settlements';
import { RecoveryPass, SagaRecovery } from './saga/recovery-pass';
import type { SagaOptions } from './saga/redemption-saga';

export interface CatalogMarketplaceModules {
  items: CatalogItems;
  catalogRedemptions: CatalogRedemptions;
  listings: Listings;
  marketplaceRedemptions: MarketplaceRedemptions;
  settlements: Settlements;
  account: BalanceAccount;
  /** Not started: main.ts runs it with the service, a spec calls runOnce. */
  recovery: RecoveryPass;
}

/**
 * Every collection of the service behind its repository, and the domain
 * modules on them, wired once (main.ts, testing/). The redemptions' events
 * are carried through `outbox`; `account` is the incentive service's
 * balances (or a stand-in).
 */
export function catalogMarketplaceModules(deps: {
  db: Connection;
  outbox: Outbox;
  account: BalanceAccount;
  logger: Logger;
  saga: SagaOptions;
  recoveryIntervalMs: number;
}): CatalogMarketplaceModules {
  const { db, outbox, account, logger } = deps;
  const items = new CatalogItems(new CatalogItemRepository(db));
  const catalogRedemptions = new CatalogRedemptions(new CatalogRedemptionRepository(db, outbox), items, account, logger, deps.saga);
  const listings = new Listings(new ListingRepository(db));
  const marketplaceRecords = new MarketplaceRedemptionRepository(db, outbox);
  const marketplaceRedemptions = new MarketplaceRedemptions(marketplaceRecords, listings, account, logger, deps.saga);
  const recovery = new RecoveryPass(
    [
      new SagaRecovery('catalog', catalogRedemptions.saga, items.stock, logger),
      new SagaRecovery('marketplace', marketplaceRedemptions.saga, listings.stock, logger),
    ],
    logger,
    { intervalMs: deps.recoveryIntervalMs },
  );
  return {
    items,
    catalogRedemptions,
    listings,
    marketplaceRedemptions,
    settlements: new Settlements(marketplaceRecords, listings),
    account,
    recovery,
  };
}
