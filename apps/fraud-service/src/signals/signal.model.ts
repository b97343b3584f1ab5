import { Schema, type Connection, type Model } from 'mongoose';
import type { EnumName, SignalKind as SignalKindEnum } from '@ris/contracts';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { SignalRepository } from './signal.repository';

/** REFERRAL, CLICK or CONVERSION: the names of the contract's SignalKind. */
export type SignalKind = EnumName<typeof SignalKindEnum>;

/**
 * One observed event with the end user's context. Stored per app in the
 * fraud service's own database, so every replica's scoring sees every
 * replica's traffic (velocity rules need the global picture).
 */
export interface SignalDoc {
  /** `<appId>:<kind>:<subject id>`: scoring the same subject again stores nothing new. */
  _id: string;
  appId: string;
  kind: SignalKind;
  campaignId: string;
  referralCode: string;
  referrerId: string;
  refereeId: string | null;
  ip: string | null;
  userAgent: string | null;
  deviceId: string | null;
  email: string | null;
  at: Date;
}

const signalSchema = new Schema<SignalDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    kind: { type: String, required: true },
    campaignId: { type: String, required: true },
    referralCode: { type: String, required: true },
    referrerId: { type: String, required: true },
    refereeId: { type: String, default: null },
    ip: { type: String, default: null },
    userAgent: { type: String, default: null },
    deviceId: { type: String, default: null },
    email: { type: String, default: null },
    at: { type: Date, required: true },
  },
  { collection: 'signals', versionKey: false },
);

declareIndexes<QueryNames<SignalRepository>>(signalSchema, [
  // The velocity rules count from SignalWindows (Redis), not from these.
  { keys: { appId: 1, ip: 1, kind: 1, at: -1 }, serves: ['sharing'], why: 'a flag evidence by IP' },
  { keys: { appId: 1, deviceId: 1, kind: 1, at: -1 }, serves: ['sharing'], why: 'a flag evidence by device' },
  {
    keys: { appId: 1, referralCode: 1, kind: 1, at: -1 },
    serves: ['referralSignalOf', 'clicksOnCode'],
    why: "the referrer's own signal (SAME_IP, SAME_DEVICE, emails); a flag evidence's click before the conversion",
  },
  { keys: { appId: 1, email: 1, kind: 1, at: -1 }, serves: ['sharing'], why: "a flag's evidence by email (IP and device go by the indexes above)" },
]);

export const signalModel = (db: Connection): Model<SignalDoc> =>
  (db.models.Signal as Model<SignalDoc> | undefined) ?? db.model<SignalDoc>('Signal', signalSchema);
