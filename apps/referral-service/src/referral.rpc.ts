import type { ServiceImpl } from '@connectrpc/connect';
import { ReferralService } from '@ris/contracts';
import type { Logger } from '@ris/logging';
import { rpcService, type RpcService } from '@ris/rpc';
import { campaignCalls } from './campaigns/campaigns.rpc';
import { clickCalls } from './clicks/clicks.rpc';
import { conversionCalls } from './conversions/conversions.rpc';
import { rewardDecisionCalls } from './conversions/reward-decisions.rpc';
import { flagCalls } from './flags/flags.rpc';
import { stripeCalls } from './integrations/stripe/stripe.rpc';
import { participantCalls } from './participants/participants.rpc';
import { purchaseCalls } from './purchases/purchases.rpc';
import type { ReferralModules } from './referral-modules';
import { referralCalls } from './referrals/referrals.rpc';
import { reversalCalls } from './reversals/reversals.rpc';
import { statsCalls } from './stats/stats.rpc';

/**
 * The referral service at its edge: each capability's calls (its
 * `*.rpc.ts`), together. Every call acts for the app of its request
 * (tenantOf), but the three declared here.
 */
export function referralService(modules: ReferralModules, logger: Logger): RpcService {
  const impl: ServiceImpl<typeof ReferralService> = {
    ...campaignCalls(modules.campaigns),
    ...referralCalls(modules.referrals, modules.referralList),
    ...clickCalls(modules.clicks, logger),
    ...conversionCalls(modules.recorder, modules.conversionList),
    ...purchaseCalls(modules.purchases, modules.purchaseList),
    ...reversalCalls(modules.reversals, modules.stored.reversals, modules.campaigns),
    ...statsCalls(modules.figures, modules.referrerStats, modules.topReferrers),
    ...flagCalls(modules.flags, modules.evidence),
    ...participantCalls(modules.participants),
    ...rewardDecisionCalls(modules.rewardDecisions),
    ...stripeCalls(modules.stripeIntegrations, modules.stripeEvents),
  };
  return rpcService(ReferralService, impl, {
    tenant: {
      unscoped: {
        resolveReferralLink: 'a hosted link names no app: its code, unique across apps, finds the app that holds it',
        recordClicks: "a batch of many apps' clicks (the gateway sends those that arrive together as one call): each click carries its own appId",
        receiveStripeEvent: "Stripe's request to an integration's public endpoint names no app: its integration id finds the app, whose secret then checks the signature",
      },
    },
  });
}
