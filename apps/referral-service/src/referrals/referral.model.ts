import { Schema, type Connection, type Model } from 'mongoose';
import type { EnumName, ReferralStatus } from '@ris/contracts';
import { carriesEvents, type OutboxFields } from '@ris/events';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { ReferralRepository } from './referral.repository';

export interface FraudDoc {
  riskScore: number | null;
  reasons: string[];
  warning: string | null;
}

/** The end user's context as the caller forwarded it; kept only while a fraud check waits. */
export interface ClientContextDoc {
  ip: string | null;
  userAgent: string | null;
  deviceId: string | null;
  email: string | null;
}

/** DONE: scored (or nothing to score); DEFERRED: the fraud service was unavailable, the recovery pass scores it. */
export type FraudCheckState = 'DONE' | 'DEFERRED';

export interface ReferralDoc extends OutboxFields {
  _id: string;
  appId: string;
  campaignId: string;
  code: string;
  referrerId: string;
  refereeId: string | null;
  referrerUsername: string | null;
  referrerEmail: string | null;
  /**
   * PENDING as stored; the referral reads COMPLETED once its counters show a
   * conversion (referral-counters.model.ts), so a conversion never rewrites
   * this document (on FerretDB that rewrite scans every referral).
   */
  status: EnumName<typeof ReferralStatus>;
  /** Depth of the referrer in the campaign's referral tree (1 = never referred). */
  level: number;
  /** The referral the referrer converted through, in this campaign (level > 1). */
  parentReferralId?: string | null;
  /** 0 at creation; the live amount is in the referral's counters (referral-counters.model.ts). */
  rewardAmount: number;
  isFlagged: boolean;
  fraud: FraudDoc;
  fraudCheck?: FraudCheckState;
  context?: ClientContextDoc | null;
  createdAt: Date;
}

/** What never changes about a referral: enough to attribute a click or a funnel step to it. */
export type ReferralRef = Pick<ReferralDoc, '_id' | 'code' | 'campaignId' | 'referrerId'>;

const fraudSchema = new Schema<FraudDoc>({ riskScore: Number, reasons: [String], warning: String }, { _id: false });
const contextSchema = new Schema<ClientContextDoc>({ ip: String, userAgent: String, deviceId: String, email: String }, { _id: false });

const referralSchema = new Schema<ReferralDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    campaignId: { type: String, required: true },
    code: { type: String, required: true },
    referrerId: { type: String, required: true },
    refereeId: { type: String, default: null },
    referrerUsername: { type: String, default: null },
    referrerEmail: { type: String, default: null },
    status: { type: String, required: true },
    level: { type: Number, required: true },
    parentReferralId: { type: String, default: null },
    rewardAmount: { type: Number, required: true },
    isFlagged: { type: Boolean, required: true },
    fraud: { type: fraudSchema, default: () => ({ riskScore: null, reasons: [], warning: null }) },
    fraudCheck: { type: String, default: 'DONE' },
    context: { type: contextSchema, default: null },
    createdAt: { type: Date, required: true },
  },
  { collection: 'referrals', versionKey: false },
);
declareIndexes<QueryNames<ReferralRepository>>(referralSchema, [
  {
    keys: { appId: 1, code: 1 },
    options: { unique: true },
    serves: ['withCode', 'insert'],
    why: 'codes are unique per app; a referral whose code keys a crash left unwritten is found by it',
  },
  {
    keys: { appId: 1, campaignId: 1, referrerId: 1 },
    options: { unique: true },
    serves: ['ofReferrer', 'insert', 'countOfReferrer'],
    why: 'one referral per referrer and campaign: asking again returns the same one, and two concurrent first requests cannot both create one',
  },
  {
    keys: { appId: 1, referrerId: 1 },
    serves: ['countOfReferrer', 'page', 'all'],
    why: "GET /users/{userId}/stats without campaignId (the user's referrals in every campaign), and GET /referrals?referrerId= and its export (one per campaign: sorted in memory)",
  },
  {
    keys: { appId: 1, campaignId: 1, createdAt: -1, _id: -1 },
    serves: ['page', 'all'],
    why: "GET /referrals?campaignId= and its export: a campaign's referrals, newest first (ties by id); the sort is the index order, so a page reads only its own entries",
  },
  { keys: { appId: 1, createdAt: -1, _id: -1 }, serves: ['page', 'all'], why: "GET /referrals without a filter, and its export: the app's referrals, newest first" },
]);

// referral.created waits here until published (see Outbox in @ris/events).
carriesEvents(referralSchema);

export const referralModel = (db: Connection): Model<ReferralDoc> =>
  (db.models.Referral as Model<ReferralDoc> | undefined) ?? db.model<ReferralDoc>('Referral', referralSchema);
