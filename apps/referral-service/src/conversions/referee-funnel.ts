import { newId } from '@ris/mongo';
import type { ReferralRef } from '../referrals/referral.model';
import { NOT_CONVERTED } from './conversion-status';
import type { ConversionDoc } from './conversion.model';
import type { ConversionRepository } from './conversion.repository';

/**
 * The level-1 record before a conversion: a referee becomes PENDING when a
 * referral names them, CLICKED when a click carries their id. The record
 * follows the code the referee touched last; the attribution window starts
 * at the first touch through that code.
 */
export class RefereeFunnel {
  constructor(private readonly conversions: ConversionRepository) {}

  /** A referral created with a refereeId: PENDING, unless the referee is already in the funnel. */
  async refereeKnown(appId: string, referral: ReferralRef, refereeId: string, at: Date): Promise<void> {
    await this.conversions.insertRecord(appId, this.record(referral, refereeId, 'PENDING', at));
  }

  /** A click carrying the refereeId: CLICKED (a converted referee stays converted). */
  async clicked(appId: string, referral: ReferralRef, refereeId: string, at: Date): Promise<void> {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const current = await this.conversions.refereeRecord(appId, referral.campaignId, refereeId);
      if (!current) {
        if (await this.conversions.insertRecord(appId, { ...this.record(referral, refereeId, 'CLICKED', at), clickedAt: at })) return;
        continue; // created meanwhile: update it instead
      }
      if (!NOT_CONVERTED.includes(current.status)) return;
      const sameCode = current.referralId === referral._id;
      await this.conversions.moveFunnelRecord(appId, referral.campaignId, refereeId, {
        status: 'CLICKED',
        clickedAt: at,
        lastEventAt: at,
        ...(sameCode ? {} : { ...this.attribution(referral), touchedAt: at }),
      });
      return;
    }
  }

  private attribution(referral: ReferralRef) {
    return {
      referralId: referral._id,
      referralCode: referral.code,
      originalReferralCode: referral.code,
      referrerId: referral.referrerId,
    };
  }

  private record(referral: ReferralRef, refereeId: string, status: 'PENDING' | 'CLICKED', at: Date): Omit<ConversionDoc, 'appId'> {
    const id = newId('conv');
    return {
      _id: id,
      campaignId: referral.campaignId,
      conversionId: id,
      ...this.attribution(referral),
      refereeId,
      level: 1,
      status,
      amount: null,
      // Set when it converts; until then the campaign's.
      currency: null,
      metadataJson: null,
      rewardAmount: 0,
      refereeRewardAmount: 0,
      attributed: true,
      isFlagged: false,
      fraud: { riskScore: null, reasons: [], warning: null },
      fraudCheck: null,
      context: null,
      review: null,
      rewardsIssuedAt: null,
      stateVersion: 0,
      rewardsSettled: true,
      touchedAt: at,
      clickedAt: null,
      convertedAt: null,
      lastEventAt: at,
      createdAt: at,
    };
  }
}
