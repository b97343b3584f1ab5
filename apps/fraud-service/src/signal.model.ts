import { Schema, type Connection, type Model } from 'mongoose';

export type SignalKind = 'REFERRAL' | 'CLICK' | 'CONVERSION';

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
// IP_VELOCITY: signals of one kind from one IP inside the window.
signalSchema.index({ appId: 1, ip: 1, kind: 1, at: -1 });
// DEVICE_VELOCITY: the same for one device.
signalSchema.index({ appId: 1, deviceId: 1, kind: 1, at: -1 });
// REFERRER_VELOCITY: a referrer's recent conversions.
signalSchema.index({ appId: 1, referrerId: 1, kind: 1, at: -1 });
// MULTIPLE_CODES: a referee's recent clicks and conversions.
signalSchema.index({ appId: 1, refereeId: 1, kind: 1, at: -1 });
// The referrer's own referral signal (SAME_IP/SAME_DEVICE/emails) and
// FAST_CONVERSION's recent clicks on the code.
signalSchema.index({ appId: 1, referralCode: 1, kind: 1, at: -1 });
// A flag's evidence (GetSignalEvidence): the signals sharing the subject's
// email address around its time. (Its IP and device go by the velocity
// rules' indexes above.)
signalSchema.index({ appId: 1, email: 1, kind: 1, at: -1 });

export const signalModel = (db: Connection): Model<SignalDoc> =>
  (db.models.Signal as Model<SignalDoc> | undefined) ?? db.model<SignalDoc>('Signal', signalSchema);
