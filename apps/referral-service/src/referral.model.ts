import { Schema, type Connection, type Model } from 'mongoose';

export interface FraudDoc {
  riskScore: number | null;
  reasons: string[];
  warning: string | null;
}

export interface ReferralDoc {
  _id: string;
  appId: string;
  campaignId: string;
  code: string;
  referrerId: string;
  refereeId: string | null;
  referrerUsername: string | null;
  referrerEmail: string | null;
  status: 'PENDING' | 'COMPLETED';
  /** Depth of the referrer in the campaign's referral tree (1 = never referred). */
  level: number;
  rewardAmount: number;
  isFlagged: boolean;
  fraud: FraudDoc;
  createdAt: Date;
}

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
    rewardAmount: { type: Number, required: true },
    isFlagged: { type: Boolean, required: true },
    fraud: {
      type: new Schema<FraudDoc>({ riskScore: Number, reasons: [String], warning: String }, { _id: false }),
      default: () => ({ riskScore: null, reasons: [], warning: null }),
    },
    createdAt: { type: Date, required: true },
  },
  { collection: 'referrals', versionKey: false },
);
// GET /referrals/{code}, clicks and conversions: find by code. Codes are unique per app.
referralSchema.index({ appId: 1, code: 1 }, { unique: true });
// One referral per referrer and campaign: asking again returns the same one,
// and two concurrent first requests cannot both create one.
referralSchema.index({ appId: 1, campaignId: 1, referrerId: 1 }, { unique: true });

export const referralModel = (db: Connection): Model<ReferralDoc> =>
  (db.models.Referral as Model<ReferralDoc> | undefined) ?? db.model<ReferralDoc>('Referral', referralSchema);
