// First: tracing, when configured, starts before what it instruments loads.
import '@ris/telemetry/start-tracing';
import { setting } from '@ris/config';
import { IncentiveService } from '@ris/contracts';
import { createServiceClient, refusalsAsDomainErrors } from '@ris/rpc';
import { runService } from '@ris/service-runtime';
import { IncentiveBalanceAccount } from './balances/incentive-balance-account';
import { catalogMarketplaceModules } from './catalog-marketplace-modules';
import { catalogMarketplaceService } from './catalog-marketplace.rpc';

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
    const incentive = createServiceClient(IncentiveService, config.INCENTIVE_SERVICE_URL, { timeoutMs: config.INCENTIVE_TIMEOUT_MS });
    const modules = catalogMarketplaceModules({
      db,
      outbox,
      // Its refusals as domain errors: the saga tells a refused debit from one whose outcome is unknown.
      account: new IncentiveBalanceAccount(refusalsAsDomainErrors(IncentiveService, incentive)),
      logger,
      saga: { leaseMs: config.REDEMPTION_LEASE_MS, liveness },
      recoveryIntervalMs: config.RECOVERY_INTERVAL_MS,
    });
    return {
      services: [catalogMarketplaceService(modules)],
      start: () => modules.recovery.start(),
      stop: () => modules.recovery.stop(),
    };
  },
});
