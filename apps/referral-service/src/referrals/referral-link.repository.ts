import type { Connection } from 'mongoose';
import { Repository } from '@ris/mongo';
import { normalizeReferralCode } from './referral-code';
import { referralLinkKeyModel, type ReferralLinkKeyDoc } from './referral-link-key.model';
import type { ReferralRef } from './referral.model';

/**
 * The codes of hosted links, unique across apps (referral-link-key.model.ts):
 * claimed for a referral, released when the referral could not be stored
 * under it, and looked up by code alone.
 */
export class ReferralLinkRepository extends Repository<ReferralLinkKeyDoc> {
  constructor(db: Connection) {
    super(referralLinkKeyModel(db));
  }

  /**
   * Claims the referral's code for its hosted link: true when the code is
   * now (or was already) the referral's, false when another referral (of
   * any app) holds it. One insert; the unique _id decides races.
   */
  async claim(appId: string, referral: ReferralRef): Promise<boolean> {
    const [inserted] = await this.insertNew([
      { _id: referral.code, appId, referralId: referral._id, campaignId: referral.campaignId, referrerId: referral.referrerId },
    ]);
    if (inserted) return true;
    const holder = await this.holderOf(referral.code);
    return holder?.appId === appId && holder.referralId === referral._id;
  }

  /** Claims the code of a referral made before hosted links existed (or whose claim a crash left unmade): a read when it is there. */
  async ensure(appId: string, referral: ReferralRef): Promise<void> {
    const holder = await this.holderOf(referral.code);
    if (!holder) await this.claim(appId, referral);
  }

  /** Gives a code back when the referral that claimed it could not be stored under it. */
  async release(appId: string, code: string, referralId: string): Promise<void> {
    await this.collection.deleteOne(appId, { _id: code, referralId });
  }

  /**
   * Whose code this is, whatever the case it was typed in. Not scoped by an
   * app: a visitor's browser names none, and the code is what finds it (as
   * an API key's hash finds its app).
   */
  holderOf(rawCode: string): Promise<ReferralLinkKeyDoc | null> {
    return this.collection.model.collection.findOne({ _id: normalizeReferralCode(rawCode) } as never) as Promise<ReferralLinkKeyDoc | null>;
  }
}
