import { domainEvent, stableEventId } from '@ris/events';
import type { ReferralRef } from '../referrals/referral.model';
import type { ClickDoc } from './click.model';

/** referral.clicked: webhooks (REFERRAL_CLICKED) and the incentive engine (REFERRAL_CLICK actions) consume it. */
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
