import type { Connection } from 'mongoose';
import { DocumentWriteQueue, Repository } from '@ris/mongo';
import { referralCountersModel, type ReferralCountersDoc } from './referral-counters.model';
import type { ReferralRef } from './referral.model';

/** The referrals' counters (referral-counters.model.ts): increments by referral, reads by referral or referrer. */
export class ReferralCountersRepository extends Repository<ReferralCountersDoc> {
  /** Increments of one referral's counters, coalesced per referral in this process. */
  private readonly increments: DocumentWriteQueue<ReferralCountersDoc>;

  constructor(db: Connection) {
    super(referralCountersModel(db));
    this.increments = new DocumentWriteQueue(this.collection);
  }

  /** Adds to a referral's counters: `conversions.L<n>`, rewardAmount. */
  add(appId: string, referral: Pick<ReferralRef, '_id' | 'campaignId' | 'referrerId'>, inc: Record<string, number>): Promise<void> {
    return this.increments.increment(appId, { _id: referral._id }, inc, { campaignId: referral.campaignId, referrerId: referral.referrerId });
  }

  /** A referrer's referrals' counters, in one campaign or in all (GET /users/{userId}/stats). */
  ofReferrer(appId: string, referrerId: string, campaignId?: string): Promise<ReferralCountersDoc[]> {
    return this.collection.find(appId, campaignId ? { referrerId, campaignId } : { referrerId });
  }
}
