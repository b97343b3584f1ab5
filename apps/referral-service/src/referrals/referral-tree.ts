import type { ConversionRepository } from '../conversions/conversion.repository';
import type { ReferralDoc } from './referral.model';
import type { ReferralRepository } from './referral.repository';

/**
 * The campaign's referral tree, read from the conversions: a user's parent
 * is the referral they themselves converted through in the same campaign
 * (a rejected fraud review cuts that link).
 */
export class ReferralTree {
  constructor(
    private readonly referrals: ReferralRepository,
    private readonly conversions: ConversionRepository,
  ) {}

  /** The referral `userId` converted through in the campaign, if any. */
  async parentOf(appId: string, campaignId: string, userId: string): Promise<ReferralDoc | null> {
    const own = await this.conversions.convertedLink(appId, campaignId, userId);
    if (!own) return null;
    return this.referrals.findById(appId, own.referralId);
  }

  /** Referral.level of a new referral of `referrerId`: 1, or the parent's level + 1. */
  async levelOf(appId: string, campaignId: string, referrerId: string): Promise<{ level: number; parentReferralId: string | null }> {
    const parent = await this.parentOf(appId, campaignId, referrerId);
    return parent ? { level: parent.level + 1, parentReferralId: parent._id } : { level: 1, parentReferralId: null };
  }

  /**
   * The referrals above `referral`, nearest first, at most `count`: the
   * referrers who get level 2, 3, … records. Stops at a loop (a user met
   * twice, e.g. A referred B and B referred A), so nobody is paid for their
   * own conversion.
   */
  async upline(appId: string, referral: ReferralDoc, refereeId: string, count: number): Promise<ReferralDoc[]> {
    const chain: ReferralDoc[] = [];
    const seen = new Set([refereeId, referral.referrerId]);
    let current = referral;
    while (chain.length < count) {
      const parent = await this.parentOf(appId, referral.campaignId, current.referrerId);
      if (!parent || seen.has(parent.referrerId)) break;
      seen.add(parent.referrerId);
      chain.push(parent);
      current = parent;
    }
    return chain;
  }
}
