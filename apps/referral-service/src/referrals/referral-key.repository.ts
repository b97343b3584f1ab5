import type { Connection, Model } from 'mongoose';
import { Repository } from '@ris/mongo';
import { referralCodeKeyModel, referralOwnerKeyModel, type ReferralKeyDoc } from './referral-key.model';

/**
 * A referral's lookup keys of one kind (referral-key.model.ts): by code or
 * by owner, one collection each. Written once and read by _id only, so
 * they need no index of their own.
 */
export class ReferralKeyRepository extends Repository<ReferralKeyDoc> {
  /** The keys by code: `<appId>:<code>`. */
  static byCode(db: Connection): ReferralKeyRepository {
    return new ReferralKeyRepository(referralCodeKeyModel(db));
  }

  /** The keys by owner: `<appId>:<campaignId>:<referrerId>`. */
  static byOwner(db: Connection): ReferralKeyRepository {
    return new ReferralKeyRepository(referralOwnerKeyModel(db));
  }

  private constructor(model: Model<ReferralKeyDoc>) {
    super(model);
  }

  /** Writes a key once: one already there (a retry, another replica) holds the same fields. */
  async add(key: ReferralKeyDoc): Promise<void> {
    await this.insertNew([key]);
  }
}
