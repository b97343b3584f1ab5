import { Schema, type Connection, type Model } from 'mongoose';

/** One charge.refunded event's part of a charge's refunds: what it reverses, whatever order the events came in. */
export interface ChargeRefundEntry {
  stripeEventId: string;
  /** What this event newly refunded, in the currency's minor units. */
  amountMinor: number;
  /** The charge was refunded whole with it: all that is left of the sale is reversed. */
  full: boolean;
}

/**
 * How much of one charge the app's reversals stand for. Stripe's
 * charge.refunded carries the charge's refunded total so far, not the
 * refund: each event reverses what its total adds to this one, claimed
 * once per event (its entry), so a repeat or an older total that arrives
 * late reverses nothing. `_id` is `<appId>:<charge id>`.
 */
export interface ChargeRefundDoc {
  _id: string;
  appId: string;
  chargeId: string;
  /** The highest refunded total applied, in minor units. */
  refundedMinor: number;
  entries: ChargeRefundEntry[];
}

const chargeRefundSchema = new Schema<ChargeRefundDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    chargeId: { type: String, required: true },
    refundedMinor: { type: Number, required: true },
    entries: { type: [new Schema<ChargeRefundEntry>({ stripeEventId: String, amountMinor: Number, full: Boolean }, { _id: false })], default: [] },
  },
  { collection: 'stripe_charge_refunds', versionKey: false },
);
// Read by _id only.

export const chargeRefundModel = (db: Connection): Model<ChargeRefundDoc> =>
  (db.models.StripeChargeRefund as Model<ChargeRefundDoc> | undefined) ?? db.model<ChargeRefundDoc>('StripeChargeRefund', chargeRefundSchema);
