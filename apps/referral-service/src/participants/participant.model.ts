import { Schema, type Connection, type Model } from 'mongoose';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { ParticipantRepository } from './participant.repository';

/**
 * One person of the app, as the referral program and the incentive engine
 * have seen them (GET /participants): kept on write beside the counters
 * (a referral created, a conversion counted or rejected), and from the
 * incentive engine's events (activity there; the balance itself is the
 * engine's, read from it for each page).
 */
export interface ParticipantDoc {
  /** `<appId>:<userId>`: every write goes by it (app ids hold no ':'). */
  _id: string;
  appId: string;
  userId: string;
  /** The latest e-mail address the app sent with this user (lower case), if any. */
  email: string | null;
  /** Referral codes the user owns. */
  referrals: number;
  /** Level-1 conversions credited to the user (rejected ones taken out). */
  conversions: number;
  /** The user's rewards from the referral program, as referrer (every level) and referee, less those cancelled. */
  rewardValue: number;
  /** The referrer whose code the user converted through (their latest counted conversion). */
  referredBy: string | null;
  convertedAt: Date | null;
  /** The incentive engine has recorded events of this user. */
  engaged: boolean;
  firstSeenAt: Date;
  lastActivityAt: Date;
}

const participantSchema = new Schema<ParticipantDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    userId: { type: String, required: true },
    email: { type: String, default: null },
    referrals: { type: Number, default: 0 },
    conversions: { type: Number, default: 0 },
    rewardValue: { type: Number, default: 0 },
    referredBy: { type: String, default: null },
    convertedAt: { type: Date, default: null },
    engaged: { type: Boolean, default: false },
    firstSeenAt: { type: Date, required: true },
    lastActivityAt: { type: Date, required: true },
  },
  { collection: 'participants', versionKey: false },
);
// Each order of GET /participants (and of its export) has its index, ties broken by user id so a page reads the same every time.
declareIndexes<QueryNames<ParticipantRepository>>(participantSchema, [
  { keys: { appId: 1, userId: 1 }, serves: ['page', 'all', 'ofUsers'], why: 'by user id, and a user id prefix (a range)' },
  { keys: { appId: 1, email: 1 }, serves: ['page', 'all'], why: 'an e-mail prefix (a range)' },
  { keys: { appId: 1, referrals: -1, userId: 1 }, serves: ['page', 'all'] },
  { keys: { appId: 1, conversions: -1, userId: 1 }, serves: ['page', 'all'] },
  { keys: { appId: 1, rewardValue: -1, userId: 1 }, serves: ['page', 'all'] },
  { keys: { appId: 1, lastActivityAt: -1, userId: 1 }, serves: ['page', 'all'] },
  { keys: { appId: 1, engaged: 1, userId: 1 }, serves: ['page', 'all'], why: 'sorted by coins: after the users with a balance, those without one' },
]);

export const participantModel = (db: Connection): Model<ParticipantDoc> =>
  (db.models.Participant as Model<ParticipantDoc> | undefined) ?? db.model<ParticipantDoc>('Participant', participantSchema);
