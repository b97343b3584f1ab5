import { Schema, type Connection, type Model } from 'mongoose';

/**
 * A conversion whose full reversal reached the engine (conversion.reversed):
 * kept so that a referral credit of that conversion written after the
 * reversal was handled (its conversion.created arrives on another consumer,
 * and may come later) is taken back too. One per conversion, the first full
 * reversal's; insert-only.
 */
export interface ConversionReversalDoc {
  /** conversionReversalId(app, conversion). */
  _id: string;
  appId: string;
  /** The level-1 conversion. */
  conversionId: string;
  /** Its direct referrer, whom conversion.created credited. */
  referrerId: string;
  reversalId: string;
  /** REFUND, CHARGEBACK, CANCELLATION or OTHER, as the referral service sent it. */
  reason: string;
  /** When the conversion was reversed (the event's occurredAt). */
  reversedAt: Date;
  createdAt: Date;
}

const conversionReversalSchema = new Schema<ConversionReversalDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    conversionId: { type: String, required: true },
    referrerId: { type: String, required: true },
    reversalId: { type: String, required: true },
    reason: { type: String, required: true },
    reversedAt: { type: Date, required: true },
    createdAt: { type: Date, required: true },
  },
  { collection: 'conversion_reversals', versionKey: false },
);
// Read by _id only (derived from the conversion): no other index.

export const conversionReversalModel = (db: Connection): Model<ConversionReversalDoc> =>
  (db.models.ConversionReversal as Model<ConversionReversalDoc> | undefined) ?? db.model<ConversionReversalDoc>('ConversionReversal', conversionReversalSchema);
