import type { Connection, Model } from 'mongoose';
import { isDuplicateKeyError } from '@ris/mongo';
import { normalizeReferralCode } from './referral-code';
import { referralLinkKeyModel, type ReferralLinkKeyDoc } from './referral-link-key.model';
import type { ReferralRef } from './referral.model';

/**
 * The codes of hosted links, unique across apps (referral-link-key.model.ts):
 * claimed for a referral, released when the referral could not be stored
 * under it, and looked up by code alone.
 */
export class ReferralLinks {
  private readonly keys: Model<ReferralLinkKeyDoc>;

  constructor(db: Connection) {
    this.keys = referralLinkKeyModel(db);
  }

  /**
   * Claims the referral's code for its hosted link: true when the code is
   * now (or was already) the referral's, false when another referral (of
   * any app) holds it. One insert; the unique _id decides races.
   */
  async claim(appId: string, referral: ReferralRef): Promise<boolean> {
    try {
      await this.keys.collection.insertOne({
        _id: referral.code,
        appId,
        referralId: referral._id,
        campaignId: referral.campaignId,
        referrerId: referral.referrerId,
      } as never);
      return true;
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      const holder = await this.find(referral.code);
      return holder?.appId === appId && holder.referralId === referral._id;
    }
  }

  /** Claims the code of a referral made before hosted links existed (or whose claim a crash left unmade): a read when it is there. */
  async ensure(appId: string, referral: ReferralRef): Promise<void> {
    const holder = await this.find(referral.code);
    if (!holder) await this.claim(appId, referral);
  }

  /** Gives a code back when the referral that claimed it could not be stored under it. */
  async release(appId: string, code: string, referralId: string): Promise<void> {
    await this.keys.collection.deleteOne({ _id: code, appId, referralId } as never);
  }

  /** Whose code this is, whatever the case it was typed in. */
  find(rawCode: string): Promise<ReferralLinkKeyDoc | null> {
    return this.keys.collection.findOne({ _id: normalizeReferralCode(rawCode) } as never) as Promise<ReferralLinkKeyDoc | null>;
  }
}
