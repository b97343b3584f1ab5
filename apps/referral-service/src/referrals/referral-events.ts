import { domainEvent, stableEventId } from '@ris/events';
import type { ClickDoc } from '../clicks/click.model';
import type { ReferralDoc, ReferralRef } from './referral.model';

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

export function referralClicked(click: ClickDoc, referral: ReferralRef) {
  return domainEvent(
    'referral.clicked',
    click.appId,
    {
      clickId: click._id,
      referralId: referral._id,
      referralCode: referral.code,
      campaignId: referral.campaignId,
      referrerId: referral.referrerId,
      refereeId: click.refereeId,
      clickedAt: click.clickedAt.toISOString(),
    },
    { id: stableEventId('referral.clicked', click.appId, click._id), occurredAt: click.clickedAt },
  );
}
