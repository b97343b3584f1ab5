import { Schema, type Connection, type Model } from 'mongoose';

/** An app's engine settings (PUT /incentives/settings): one document per app, _id = appId. */
export interface IncentiveSettingsDoc {
  _id: string;
  appId: string;
  coinExpiryDays: number | null;
  tokenExpiryDays: number | null;
  updatedAt: Date;
}

const incentiveSettingsSchema = new Schema<IncentiveSettingsDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    coinExpiryDays: { type: Number, default: null },
    tokenExpiryDays: { type: Number, default: null },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'incentive_settings', versionKey: false },
);
// Read by _id only (the app's id): no other index.

export const incentiveSettingsModel = (db: Connection): Model<IncentiveSettingsDoc> =>
  (db.models.IncentiveSettings as Model<IncentiveSettingsDoc> | undefined) ?? db.model<IncentiveSettingsDoc>('IncentiveSettings', incentiveSettingsSchema);
