import { Schema, type Connection, type Model } from 'mongoose';
import type { SealedSecret } from '@ris/secrets';

export interface IdempotencyRecord {
  _id: string;
  appId: string;
  key: string;
  /** SHA-256 of method, path and canonical body: a reused key with another request is refused. */
  requestHash: string;
  state: 'in_progress' | 'completed';
  status?: number;
  /**
   * The response body (JSON), encrypted: responses carry secrets the client
   * sees only once (a webhook's signing secret), kept here to replay them.
   */
  sealedBody?: SealedSecret;
  /** The body in clear, as records from before encryption at rest hold it (gone within 24 h). */
  body?: string;
  createdAt: Date;
}

const schema = new Schema<IdempotencyRecord>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    key: { type: String, required: true },
    requestHash: { type: String, required: true },
    state: { type: String, required: true },
    status: Number,
    sealedBody: Schema.Types.Mixed,
    body: String,
    createdAt: { type: Date, required: true },
  },
  { collection: 'idempotency_keys', versionKey: false },
);
// _id is `${appId}:${key}`: the lookup of a key within an app, and its uniqueness.
// Clean-up of expired keys (FerretDB has no TTL index).
schema.index({ createdAt: 1 });

export const idempotencyRecordModel = (db: Connection): Model<IdempotencyRecord> =>
  (db.models.IdempotencyRecord as Model<IdempotencyRecord> | undefined) ??
  db.model<IdempotencyRecord>('IdempotencyRecord', schema);
