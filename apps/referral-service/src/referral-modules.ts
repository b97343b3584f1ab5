import type { Connection } from 'mongoose';
import type { FraudService, RewardService, ServiceCalls } from '@ris/contracts';
import type { Outbox } from '@ris/events';
import type { Logger } from '@ris/logging';
import { OnceMarkers } from '@ris/mongo';
import type { EnvelopeCipher } from '@ris/secrets';
import { CampaignRepository } from './campaigns/campaign.repository';
import { Campaigns } from './campaigns/campaigns';
import { ClickRecorder } from './clicks/click-recorder';
import { ClickRepository } from './clicks/click.repository';
import { ConversionList } from './conversions/conversion-list';
import { ConversionRewards } from './conversions/conversion-rewards';
import { ConversionRepository } from './conversions/conversion.repository';
import { ConversionRecorder } from './conversions/record-conversion';
import { RewardDecisions } from './conversions/reward-decisions';
import { RefereeFunnel } from './conversions/referee-funnel';
import { DeferredFraudCheckRepository } from './fraud-check/deferred-fraud-check.repository';
import { FraudCheck } from './fraud-check/fraud-check';
import { FlagEvidence } from './flags/fraud-flag-evidence';
import { FraudFlagRepository } from './flags/fraud-flag.repository';
import { FraudFlags } from './flags/fraud-flags';
import { StripeEventApplier } from './integrations/stripe/apply-stripe-event';
import { ChargeRefundRepository } from './integrations/stripe/charge-refund.repository';
import { SaleLinkRepository } from './integrations/stripe/sale-link.repository';
import { StripeEventRepository } from './integrations/stripe/stripe-event.repository';
import { StripeEvents } from './integrations/stripe/stripe-events';
import { StripeIntegrationRepository } from './integrations/stripe/stripe-integration.repository';
import { StripeIntegrations } from './integrations/stripe/stripe-integrations';
import { ParticipantRepository } from './participants/participant.repository';
import { Participants } from './participants/participants';
import { RewardValueCounts } from './conversions/reward-value-counts';
import { PurchaseList } from './purchases/purchase-list';
import { PurchaseRewards } from './purchases/purchase-rewards';
import { PurchaseRepository } from './purchases/purchase.repository';
import { PurchaseRecorder } from './purchases/record-purchase';
import { RecoveryPass } from './recovery/recovery-pass';
import type { CodeKeyCache } from './referrals/code-key-cache';
import { ReferralCountersRepository } from './referrals/referral-counters.repository';
import { ReferralKeyRepository } from './referrals/referral-key.repository';
import { ReferralLinkRepository } from './referrals/referral-link.repository';
import { ReferralList } from './referrals/referral-list';
import { ReferralLookup } from './referrals/referral-lookup';
import { ReferralRepository } from './referrals/referral.repository';
import { ReferralTree } from './referrals/referral-tree';
import { Referrals } from './referrals/referrals';
import { CampaignBucketRepository } from './stats/campaign-bucket.repository';
import { CampaignBuckets } from './stats/campaign-buckets';
import { CampaignFigures } from './stats/campaign-figures';
import { TopReferrers } from './stats/top-referrers';
import { CampaignStatsRepository } from './stats/campaign-stats.repository';
import { CampaignStats } from './stats/campaign-stats';
import { ReferrerStats } from './stats/referrer-stats';
import { ReversalRepository } from './reversals/reversal.repository';
import { ConversionReversals } from './reversals/reverse-conversion';

/**
 * Every collection of the service behind its repository. The events of
 * referrals, clicks and conversions are carried through `outbox`.
 */
export function referralRepositories(db: Connection, outbox: Outbox) {
  return {
    campaigns: new CampaignRepository(db),
    referrals: new ReferralRepository(db, outbox),
    codeKeys: ReferralKeyRepository.byCode(db),
    ownerKeys: ReferralKeyRepository.byOwner(db),
    links: new ReferralLinkRepository(db),
    counters: new ReferralCountersRepository(db),
    clicks: new ClickRepository(db, outbox),
    conversions: new ConversionRepository(db, outbox),
    flags: new FraudFlagRepository(db),
    deferredChecks: new DeferredFraudCheckRepository(db),
    stats: new CampaignStatsRepository(db),
    buckets: new CampaignBucketRepository(db),
    participants: new ParticipantRepository(db),
    purchases: new PurchaseRepository(db),
    reversals: new ReversalRepository(db, outbox),
    stripeIntegrations: new StripeIntegrationRepository(db),
    stripeEvents: new StripeEventRepository(db),
    stripeSaleLinks: new SaleLinkRepository(db),
    stripeChargeRefunds: new ChargeRefundRepository(db),
  };
}

export interface ReferralDependencies {
  /** The fraud service's calls: a Connect client, or a stand-in in the specs. */
  fraud: ServiceCalls<typeof FraudService>;
  /** The reward service's calls. */
  rewards: ServiceCalls<typeof RewardService>;
  logger: Logger;
  /** Code keys shared by the replicas (Redis); without it each process reads MongoDB once per code. */
  codeKeyCache?: CodeKeyCache;
  /** How often the recovery pass runs. */
  recoveryIntervalMs: number;
  /** How long a reversal stays PENDING before the recovery pass finishes it (default REVERSAL_ABANDONED_AFTER_MS, 30 s). */
  reversalAbandonedAfterMs?: number;
  /** SECRETS_KEYS: seals the Stripe integrations' webhook secrets; without it (the specs, a command) there are no integrations. */
  secrets?: EnvelopeCipher;
}

/**
 * The service's parts, wired: repositories, then the domain modules that
 * use them. main.ts builds the running service from these (with its
 * settings, clients and lifecycle), and testing/ the same service on a
 * test database, so the wiring is written once.
 */
export function referralModules(db: Connection, outbox: Outbox, deps: ReferralDependencies) {
  const stored = referralRepositories(db, outbox);
  const once = new OnceMarkers(db);
  const lookup = new ReferralLookup(stored.referrals, stored.codeKeys, stored.ownerKeys, deps.codeKeyCache);
  const campaigns = new Campaigns(stored.campaigns);
  const buckets = new CampaignBuckets(stored.buckets);
  const stats = new CampaignStats(stored.stats, buckets);
  const fraud = new FraudCheck(deps.fraud, deps.logger);
  const participants = new Participants(stored.participants);
  const conversionRewards = new ConversionRewards(stored.conversions, stored.counters, campaigns, stats, once, deps.rewards, participants);
  const flags = new FraudFlags(stored.flags, stored.referrals, once, conversionRewards);
  const tree = new ReferralTree(stored.referrals, stored.conversions);
  const funnel = new RefereeFunnel(stored.conversions);
  const referrals = new Referrals(stored.referrals, lookup, stored.links, stored.counters, campaigns, stats, tree, funnel, fraud, stored.deferredChecks, flags, participants);
  const recorder = new ConversionRecorder(
    stored.conversions,
    lookup,
    stored.referrals,
    stored.counters,
    campaigns,
    tree,
    fraud,
    stored.deferredChecks,
    flags,
    conversionRewards,
    participants,
  );
  const rewardValues = new RewardValueCounts(stored.conversions, stored.counters, stats, participants);
  const purchaseRewards = new PurchaseRewards(stored.purchases, stored.conversions, campaigns, conversionRewards, stored.counters, stats, participants, once, deps.rewards);
  const reversals = new ConversionReversals(stored.conversions, stored.purchases, stored.reversals, deps.rewards, rewardValues, stats, once);
  const purchases = new PurchaseRecorder(stored.purchases, stored.conversions, campaigns, purchaseRewards);
  // Stripe in (docs/product-decisions.md §4.18): its events applied through the conversions, purchases and reversals above.
  const stripeIntegrations = new StripeIntegrations(stored.stripeIntegrations, campaigns, deps.secrets);
  const stripeApplier = new StripeEventApplier(lookup, recorder, purchases, reversals, stored.conversions, stored.purchases, stored.stripeSaleLinks, stored.stripeChargeRefunds);
  return {
    stored,
    lookup,
    campaigns,
    buckets,
    stats,
    conversionRewards,
    flags,
    referrals,
    recorder,
    participants,
    purchaseRewards,
    reversals,
    purchases,
    stripeIntegrations,
    stripeEvents: new StripeEvents(stripeIntegrations, stored.stripeEvents, stored.stripeSaleLinks, stripeApplier, deps.logger),
    purchaseList: new PurchaseList(stored.purchases, stored.conversions),
    rewardDecisions: new RewardDecisions(deps.rewards, stored.conversions, stored.flags, flags, conversionRewards, stored.deferredChecks, rewardValues, once),
    clicks: new ClickRecorder(stored.clicks, lookup, stats, funnel, fraud, deps.logger),
    referralList: new ReferralList(stored.referrals, lookup, stored.counters, campaigns),
    conversionList: new ConversionList(stored.conversions, campaigns),
    figures: new CampaignFigures(campaigns, stats, buckets),
    topReferrers: new TopReferrers(stored.conversions),
    referrerStats: new ReferrerStats(stored.referrals, stored.counters, stored.clicks, campaigns),
    evidence: new FlagEvidence(stored.referrals, stored.conversions, fraud),
    recovery: new RecoveryPass(stored, { campaigns, fraud, flags, conversionRewards, recorder, purchaseRewards, reversals }, deps.logger, {
      intervalMs: deps.recoveryIntervalMs,
      reversalAbandonedAfterMs: deps.reversalAbandonedAfterMs,
    }),
  };
}

export type ReferralModules = ReturnType<typeof referralModules>;
