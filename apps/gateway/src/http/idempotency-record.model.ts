import { Schema, type Connection, type Model } from 'mongoose';
import type { SealedSecret } from '@ris/secrets';

/**
 * in_progress: a request runs it (until leaseUntil); retryable: its last
 * run ended in a failure worth retrying (5xx, 429, a transient conflict),
 * so its outcome below is unknown and the next request with the key runs
 * it again under the same operation key; completed: the response is kept.
 */
export type IdempotencyState = 'in_progress' | 'retryable' | 'completed';

export interface IdempotencyRecord {
  _id: string;
  appId: string;
  key: string;
  /** SHA-256 of method, path and canonical body: a reused key with another request is refused. */
  requestHash: string;
  state: IdempotencyState;
  /** While in_progress: after this, the request that holds it is taken to be gone (a gateway that died). */
  leaseUntil?: Date;
  /** Runs so far; a retry takes the record over by a conditional update on it. */
  runs?: number;
  status?: number;
  /**
   * The response body (JSON), encrypted: responses carry secrets the client
   * sees only once (a webhook's signing secret), kept here to replay them.
   */
  sealedBody?: SealedSecret;
  /** The body in clear, as records from before encryption at rest hold it (gone within 24 h). */
  body?: string;
  /** Start of the 24 h window; with the app and key it derives the operation key. */
  createdAt: Date;
}

const schema = new Schema<IdempotencyRecord>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    key: { type: String, required: true },
    requestHash: { type: String, required: true },
    state: { type: String, required: true },
    leaseUntil: Date,
    runs: Number,
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
