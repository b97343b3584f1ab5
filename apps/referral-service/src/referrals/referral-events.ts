import { domainEvent, stableEventId } from '@ris/events';
import type { ReferralDoc } from './referral.model';

/** referral.created: webhooks (REFERRAL_CREATED) and the incentive engine consume it. */
export function referralCreated(referral: ReferralDoc) {
  return domainEvent(
    'referral.created',
    referral.appId,
    {
      referralId: referral._id,
      referralCode: referral.code,
      campaignId: referral.campaignId,
      referrerId: referral.referrerId,
      refereeId: referral.refereeId,
      level: referral.level,
      isFlagged: referral.isFlagged,
      riskScore: referral.fraud.riskScore,
      warning: referral.fraud.warning,
      reasons: referral.fraud.reasons,
      createdAt: referral.createdAt.toISOString(),
    },
    { id: stableEventId('referral.created', referral.appId, referral._id), occurredAt: referral.createdAt },
  );
}
