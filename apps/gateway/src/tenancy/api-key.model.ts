import { Schema, type Connection, type Model } from 'mongoose';

export interface ApiKeyRecord {
  _id: string;
  appId: string;
  /** SHA-256 of the full key; the key itself is never stored. */
  hash: string;
  /** First characters, to tell keys apart in listings. */
  prefix: string;
  /** What the key is for, as the OWNER named it when issuing it (`Production backend`); null: unnamed (older keys have none). */
  name?: string | null;
  createdAt: Date;
  revokedAt: Date | null;
  /** When a request last used it, to the minute (console/keys/key-usage.ts); null: never. */
  lastUsedAt?: Date | null;
}

const apiKeySchema = new Schema<ApiKeyRecord>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    hash: { type: String, required: true },
    prefix: { type: String, required: true },
    name: { type: String, default: null },
    createdAt: { type: Date, required: true },
    revokedAt: { type: Date, default: null },
    lastUsedAt: { type: Date, default: null },
  },
  { collection: 'api_keys', versionKey: false },
);
// Authentication of every request: find the key by its hash.
apiKeySchema.index({ hash: 1 }, { unique: true });
// Listing an app's keys, newest first (admin API, console).
apiKeySchema.index({ appId: 1, createdAt: -1 });

export const apiKeyModel = (db: Connection): Model<ApiKeyRecord> =>
  (db.models.ApiKey as Model<ApiKeyRecord> | undefined) ?? db.model<ApiKeyRecord>('ApiKey', apiKeySchema);
