// First: tracing, when configured, starts before what it instruments loads.
import '@ris/telemetry/start-tracing';
import { setting } from '@ris/config';
import { CatalogMarketplaceService, IncentiveService } from '@ris/contracts';
import { createServiceClient, rpcService } from '@ris/rpc';
import { runService } from '@ris/service-runtime';
import { catalogMarketplaceRpc } from './catalog-marketplace.rpc';
import { CatalogItems } from './catalog/catalog-items';
import { CatalogRedemptions } from './catalog/catalog-redemptions';
import { IncentiveBalanceAccount } from './balances/incentive-balance-account';
import { Listings } from './marketplace/listings';
import { MarketplaceRedemptions } from './marketplace/marketplace-redemptions';
import { RecoveryPass, SagaRecovery } from './saga/recovery-pass';
import { Settlements } from './marketplace/settlements';

void runService({
  name: 'catalog-marketplace-service',
  defaultPort: 50055,
  settings: {
    INCENTIVE_SERVICE_URL: setting.url(['http', 'https'], 'http://127.0.0.1:50054'),
    // A Debit or Credit without an answer by then counts as "outcome unknown" (compensated).
    INCENTIVE_TIMEOUT_MS: setting.positiveInt(5000),
    // How long a redemption's worker owns it; must well exceed INCENTIVE_TIMEOUT_MS.
    REDEMPTION_LEASE_MS: setting.positiveInt(30_000),
    // How often the recovery pass looks for redemptions left half-done (or
    // held by a process that died: released within seconds of its death).
    RECOVERY_INTERVAL_MS: setting.positiveInt(2_000),
  },
  build: ({ db, outbox, config, logger, liveness }) => {
    if (config.REDEMPTION_LEASE_MS <= config.INCENTIVE_TIMEOUT_MS * 2) {
      throw new Error('REDEMPTION_LEASE_MS must be more than twice INCENTIVE_TIMEOUT_MS');
    }
    const account = new IncentiveBalanceAccount(
      createServiceClient(IncentiveService, config.INCENTIVE_SERVICE_URL, { timeoutMs: config.INCENTIVE_TIMEOUT_MS }),
    );
    const sagaOptions = { leaseMs: config.REDEMPTION_LEASE_MS, liveness };
    const items = new CatalogItems(db);
    const catalogRedemptions = new CatalogRedemptions(db, items, account, outbox, logger, sagaOptions);
    const listings = new Listings(db);
    const marketplaceRedemptions = new MarketplaceRedemptions(db, listings, account, outbox, logger, sagaOptions);
    const settlements = new Settlements(marketplaceRedemptions.model, listings);
    const recovery = new RecoveryPass(
      [
        new SagaRecovery('catalog', catalogRedemptions.saga, items.stock, logger),
        new SagaRecovery('marketplace', marketplaceRedemptions.saga, listings.stock, logger),
      ],
      logger,
      { intervalMs: config.RECOVERY_INTERVAL_MS },
    );
    return {
      services: [
        rpcService(
          CatalogMarketplaceService,
          catalogMarketplaceRpc({ items, catalogRedemptions, listings, marketplaceRedemptions, settlements, account }),
        ),
      ],
      start: () => recovery.start(),
      stop: () => recovery.stop(),
    };
  },
});
