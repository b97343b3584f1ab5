import { Schema, type Connection, type Model } from 'mongoose';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { DeferredFraudCheckRepository } from './deferred-fraud-check.repository';

/**
 * A referral or conversion whose fraud check could not run (the fraud
 * service was unavailable), waiting for the recovery pass. A queue of its
 * own rather than a query over referrals and conversions: it holds only
 * what waits, so the pass reads a handful of documents however many
 * referrals exist (FerretDB would scan them all for any field filter).
 */
export interface DeferredFraudCheckDoc {
  /** The referral id or the (level-1) conversion id. */
  _id: string;
  appId: string;
  kind: 'REFERRAL' | 'CONVERSION';
  createdAt: Date;
}

const deferredFraudCheckSchema = new Schema<DeferredFraudCheckDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    kind: { type: String, required: true },
    createdAt: { type: Date, required: true },
  },
  { collection: 'deferred_fraud_checks', versionKey: false },
);
declareIndexes<QueryNames<DeferredFraudCheckRepository>>(deferredFraudCheckSchema, [
  { keys: { createdAt: 1 }, serves: ['oldest'], why: 'the recovery pass (every app): oldest first' },
]);

export const deferredFraudCheckModel = (db: Connection): Model<DeferredFraudCheckDoc> =>
  (db.models.DeferredFraudCheck as Model<DeferredFraudCheckDoc> | undefined) ??
  db.model<DeferredFraudCheckDoc>('DeferredFraudCheck', deferredFraudCheckSchema);
