import { Schema, type Connection, type Model } from 'mongoose';

/** A tenant: every record in every service belongs to exactly one app. */
export interface AppRecord {
  _id: string;
  name: string;
  createdAt: Date;
}

const appSchema = new Schema<AppRecord>(
  {
    _id: { type: String, required: true },
    name: { type: String, required: true },
    createdAt: { type: Date, required: true },
  },
  { collection: 'apps', versionKey: false },
);

export const appModel = (db: Connection): Model<AppRecord> =>
  (db.models.App as Model<AppRecord> | undefined) ?? db.model<AppRecord>('App', appSchema);
