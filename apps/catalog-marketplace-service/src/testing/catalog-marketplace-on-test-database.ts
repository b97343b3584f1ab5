import type { JsonObject } from '@bufbuild/protobuf';
import { Outbox } from '@ris/events';
import { createLogger } from '@ris/logging';
import { AppScoped } from '@ris/mongo';
import { Code, ConnectError, errorReason, toConnectError } from '@ris/rpc';
import { ProcessLiveness } from '@ris/service-runtime';
import { testDatabase } from '@ris/testing';
import { catalogItemModel, type CatalogItemDoc } from '../catalog/catalog-item.model';
import { redemptionModel, type RedemptionDoc } from '../catalog/catalog-redemption.model';
import { catalogMarketplaceModules, type CatalogMarketplaceModules } from '../catalog-marketplace-modules';
import { listingModel, type ListingDoc } from '../marketplace/listing.model';
import { marketplaceRedemptionModel, type MarketplaceRedemptionDoc } from '../marketplace/marketplace-redemption.model';
import { FakeBalanceAccount } from './fake-balance-account';

export interface CatalogMarketplaceOnTestDatabase {
  modules: CatalogMarketplaceModules;
  /** The incentive service's stand-in the modules debit and credit. */
  account: FakeBalanceAccount;
  outbox: Outbox;
  liveness: ProcessLiveness;
  /**
   * The collections as stored, for what a spec checks and for the
   * leftovers of a crash it sets up (the service itself reads them
   * through its repositories only).
   */
  stored: {
    items: AppScoped<CatalogItemDoc>;
    redemptions: AppScoped<RedemptionDoc>;
    listings: AppScoped<ListingDoc>;
    marketplaceRedemptions: AppScoped<MarketplaceRedemptionDoc>;
  };
  /** Stops the liveness beat and drops the database. */
  stop(): Promise<void>;
}

/**
 * The service's modules as main.ts wires them (catalog-marketplace-modules),
 * on a database of its own on the real server (FerretDB), with the
 * incentive service's stand-in, a lease of a minute and a recovery pass
 * the spec runs itself (runOnce).
 */
export async function catalogMarketplaceOnTestDatabase(prefix: string): Promise<CatalogMarketplaceOnTestDatabase> {
  const db = await testDatabase(prefix);
  const outbox = new Outbox(db);
  const liveness = new ProcessLiveness(db);
  await liveness.start();
  const account = new FakeBalanceAccount();
  const modules = catalogMarketplaceModules({
    db,
    outbox,
    account,
    logger: createLogger('test', 'silent'),
    saga: { leaseMs: 60_000, liveness },
    recoveryIntervalMs: 60_000,
  });
  const [items, redemptions, listings, marketplaceRedemptions] = [catalogItemModel(db), redemptionModel(db), listingModel(db), marketplaceRedemptionModel(db)];
  // The unique code index must be there before the first redemption.
  await Promise.all([items.init(), redemptions.init(), listings.init(), marketplaceRedemptions.init()]);
  return {
    modules,
    account,
    outbox,
    liveness,
    stored: {
      items: new AppScoped(items),
      redemptions: new AppScoped(redemptions),
      listings: new AppScoped(listings),
      marketplaceRedemptions: new AppScoped(marketplaceRedemptions),
    },
    stop: async () => {
      await liveness.stop();
      await db.drop();
    },
  };
}

/** A refusal as the caller hears it (through rpcService's mapping of domain errors). */
function asCallerHearsIt(err: unknown): ConnectError | null {
  const heard = toConnectError(err);
  return heard instanceof ConnectError ? heard : null;
}

/** The public reason of a refusal, or its bare Connect code (anything else: as a string). */
export function reasonOf(err: unknown): string {
  const heard = asCallerHearsIt(err);
  return heard ? (errorReason(heard).reason ?? Code[heard.code]) : String(err);
}

/** The details of a refusal, as the caller gets them. */
export function detailsOf(err: unknown): JsonObject | undefined {
  const heard = asCallerHearsIt(err);
  return heard ? errorReason(heard).details : undefined;
}
