import type { Client } from '@connectrpc/connect';
import {
  CatalogMarketplaceService,
  FraudService,
  Health,
  IncentiveService,
  ReferralService,
  RewardService,
  WebhookService,
} from '@ris/contracts';
import { createServiceClient } from '@ris/rpc';
import { ClickBatch } from './batching/click-batch';
import { LeaderboardReads } from './batching/leaderboard-reads';
import type { GatewayConfig } from './gateway-config';

/** One client per backend service, their health clients for /readyz, and the batched clicks and leaderboard reads. */
export function createServiceClients(config: GatewayConfig) {
  const urls = {
    referral: config.REFERRAL_SERVICE_URL,
    fraud: config.FRAUD_SERVICE_URL,
    reward: config.REWARD_SERVICE_URL,
    incentive: config.INCENTIVE_SERVICE_URL,
    catalogMarketplace: config.CATALOG_MARKETPLACE_SERVICE_URL,
    webhook: config.WEBHOOK_SERVICE_URL,
  };
  const health = Object.fromEntries(
    Object.entries(urls).map(([name, url]) => [name, createServiceClient(Health, url, { timeoutMs: 2000 })]),
  ) as Record<keyof typeof urls, Client<typeof Health>>;
  const referral = createServiceClient(ReferralService, urls.referral);
  const incentive = createServiceClient(IncentiveService, urls.incentive);
  return {
    referral,
    clicks: new ClickBatch(referral),
    fraud: createServiceClient(FraudService, urls.fraud),
    reward: createServiceClient(RewardService, urls.reward),
    incentive,
    leaderboardReads: new LeaderboardReads(incentive),
    catalogMarketplace: createServiceClient(CatalogMarketplaceService, urls.catalogMarketplace),
    webhook: createServiceClient(WebhookService, urls.webhook),
    health,
  };
}

export type ServiceClients = ReturnType<typeof createServiceClients>;
