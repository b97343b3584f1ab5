import { Schema, type Connection, type Model } from 'mongoose';

/**
 * A referral found in one primary-key read, by its code (collection
 * referral_code_keys, _id `${appId}:${code}`) or by its owner
 * (referral_owner_keys, _id `${appId}:${campaignId}:${referrerId}`).
 * Clicks, conversions and new referrals look referrals up on every
 * request. On MongoDB the referrals' own unique indexes would do; FerretDB
 * answers a lone _id find from an index on SQLite (and scans the whole
 * collection for any other filter), and scans on PostgreSQL whatever the
 * filter, where small documents make the scan cheaper than one over the
 * referrals. Carries what never changes about the referral.
 */
export interface ReferralKeyDoc {
  _id: string;
  appId: string;
  referralId: string;
  campaignId: string;
  referrerId: string;
  code: string;
}

const referralKeySchema = new Schema<ReferralKeyDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    referralId: { type: String, required: true },
    campaignId: { type: String, required: true },
    referrerId: { type: String, required: true },
    code: { type: String, required: true },
  },
  { versionKey: false },
);

export const referralCodeKeyModel = (db: Connection): Model<ReferralKeyDoc> =>
  (db.models.ReferralCodeKey as Model<ReferralKeyDoc> | undefined) ??
  db.model<ReferralKeyDoc>('ReferralCodeKey', referralKeySchema, 'referral_code_keys');

export const referralOwnerKeyModel = (db: Connection): Model<ReferralKeyDoc> =>
  (db.models.ReferralOwnerKey as Model<ReferralKeyDoc> | undefined) ??
  db.model<ReferralKeyDoc>('ReferralOwnerKey', referralKeySchema, 'referral_owner_keys');
