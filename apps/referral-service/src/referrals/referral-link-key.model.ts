import { Schema, type Connection, type Model } from 'mongoose';

/**
 * The referral behind a hosted link (GET /r/{code} on the gateway), by its
 * code alone (collection referral_link_keys, _id = the code): a visitor's
 * browser names no app, so this is the one lookup not scoped by an app,
 * like an API key's hash. It makes a code unique across apps for its
 * hosted link: a new referral claims its code here before it is stored
 * (and draws another one if an app already holds it); a referral made
 * before hosted links existed claims its code when it is asked for again
 * (and has no hosted link in the unlikely case another app holds it).
 * Only the lone _id read; no other index.
 */
export interface ReferralLinkKeyDoc {
  _id: string;
  appId: string;
  referralId: string;
  campaignId: string;
  referrerId: string;
}

const referralLinkKeySchema = new Schema<ReferralLinkKeyDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    referralId: { type: String, required: true },
    campaignId: { type: String, required: true },
    referrerId: { type: String, required: true },
  },
  { collection: 'referral_link_keys', versionKey: false },
);

export const referralLinkKeyModel = (db: Connection): Model<ReferralLinkKeyDoc> =>
  (db.models.ReferralLinkKey as Model<ReferralLinkKeyDoc> | undefined) ??
  db.model<ReferralLinkKeyDoc>('ReferralLinkKey', referralLinkKeySchema);
