import { Schema, type Connection, type Model } from 'mongoose';
import type { EnumName, FraudFlagStatus, FraudFlagSubject } from '@ris/contracts';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { FraudFlagRepository } from './fraud-flag.repository';

/** REFERRAL or CONVERSION: the names of the contract's FraudFlagSubject. */
export type FlagSubject = EnumName<typeof FraudFlagSubject>;
/** OPEN, APPROVED or REJECTED: the names of the contract's FraudFlagStatus. */
export type FlagStatus = EnumName<typeof FraudFlagStatus>;

/** The dashboard operator who resolved a flag (null: open, or resolved by an app's backend with its API key). */
export interface FlagResolver {
  operatorId: string;
  email: string;
}

/**
 * A flagged referral or conversion waiting for (or after) review.
 *
 * Flags live in the referral service, not the fraud service: a flag holds
 * records this service owns (a FLAGGED conversion, its held rewards, a
 * flagged referral), it is written in the same write path as the record it
 * flags (so there is never a flag without its conversion, or the reverse,
 * whichever service is down), and resolving it changes those records
 * first. The fraud service stays a scorer with its signals: it can be down
 * without losing or blocking a review.
 */
export interface FraudFlagDoc {
  _id: string;
  appId: string;
  subject: FlagSubject;
  /** The referral id or the (level-1) conversion id. */
  subjectId: string;
  campaignId: string;
  referralId: string;
  referralCode: string;
  conversionId: string | null;
  referrerId: string;
  refereeId: string | null;
  riskScore: number;
  reasons: string[];
  warning: string;
  status: FlagStatus;
  note: string | null;
  createdAt: Date;
  resolvedAt: Date | null;
  /** Absent on flags resolved before it was recorded. */
  resolvedBy?: FlagResolver | null;
  /** Set once the decision's effects on records and rewards are applied. */
  effectsAppliedAt: Date | null;
}

const fraudFlagSchema = new Schema<FraudFlagDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    subject: { type: String, required: true },
    subjectId: { type: String, required: true },
    campaignId: { type: String, required: true },
    referralId: { type: String, required: true },
    referralCode: { type: String, required: true },
    conversionId: { type: String, default: null },
    referrerId: { type: String, required: true },
    refereeId: { type: String, default: null },
    riskScore: { type: Number, required: true },
    reasons: { type: [String], default: [] },
    warning: { type: String, required: true },
    status: { type: String, required: true },
    note: { type: String, default: null },
    createdAt: { type: Date, required: true },
    resolvedAt: { type: Date, default: null },
    resolvedBy: { type: new Schema<FlagResolver>({ operatorId: String, email: String }, { _id: false }), default: null },
    effectsAppliedAt: { type: Date, default: null },
  },
  { collection: 'fraud_flags', versionKey: false },
);
declareIndexes<QueryNames<FraudFlagRepository>>(fraudFlagSchema, [
  {
    keys: { appId: 1, subject: 1, subjectId: 1 },
    options: { unique: true },
    serves: ['raise', 'ofSubject'],
    why: 'one flag per flagged referral or conversion: raising it again (a retry, the recovery pass) finds the first',
  },
  // GET /fraud/flags: each filter (status, campaignId, both, none) in each order (newest first, ties by id; or riskiest first, then newest).
  // Flags are written a few times in their life (raised, resolved, effects applied), so an index per listing costs little.
  { keys: { appId: 1, status: 1, createdAt: -1, _id: -1 }, serves: ['page'] },
  { keys: { appId: 1, createdAt: -1, _id: -1 }, serves: ['page'] },
  { keys: { appId: 1, status: 1, riskScore: -1, createdAt: -1, _id: -1 }, serves: ['page'], why: 'the review queue: open flags, riskiest first' },
  { keys: { appId: 1, riskScore: -1, createdAt: -1, _id: -1 }, serves: ['page'] },
  { keys: { appId: 1, campaignId: 1, status: 1, createdAt: -1, _id: -1 }, serves: ['page'] },
  { keys: { appId: 1, campaignId: 1, status: 1, riskScore: -1, createdAt: -1, _id: -1 }, serves: ['page'] },
  { keys: { appId: 1, campaignId: 1, createdAt: -1, _id: -1 }, serves: ['page'] },
  { keys: { appId: 1, campaignId: 1, riskScore: -1, createdAt: -1, _id: -1 }, serves: ['page'] },
  { keys: { effectsAppliedAt: 1, resolvedAt: 1 }, serves: ['interruptedBefore'], why: 'the recovery pass (every app): decisions whose effects were not applied yet' },
]);

export const fraudFlagModel = (db: Connection): Model<FraudFlagDoc> =>
  (db.models.FraudFlag as Model<FraudFlagDoc> | undefined) ?? db.model<FraudFlagDoc>('FraudFlag', fraudFlagSchema);
