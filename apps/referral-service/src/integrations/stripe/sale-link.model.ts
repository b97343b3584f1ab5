import { Schema, type Connection, type Model } from 'mongoose';

/**
 * A Stripe object the app's sales are known by, and the sale it belongs
 * to: a customer (its conversion), a payment intent, an invoice or a charge
 * (the conversion's own sale, or one purchase). Recorded when the
 * conversion or purchase is made, from what its checkout session or
 * invoice carried, so that a later invoice of the customer becomes a
 * purchase and a refund or dispute of the charge finds what it reverses.
 * `_id` is `<appId>:<key>` (sale-keys.ts), first one wins: no other index.
 */
export interface SaleLinkDoc {
  _id: string;
  appId: string;
  /** `customer:cus_…`, `payment_intent:pi_…`, `invoice:in_…` or `charge:ch_…`. */
  key: string;
  conversionId: string;
  /** The purchase paid through it; null: the conversion's own sale. */
  purchaseId: string | null;
  /** The Stripe event that recorded it, and when Stripe created that event (the sale's time on Stripe's clock). */
  stripeEventId: string;
  stripeEventCreatedAt: Date;
  createdAt: Date;
}

const saleLinkSchema = new Schema<SaleLinkDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    key: { type: String, required: true },
    conversionId: { type: String, required: true },
    purchaseId: { type: String, default: null },
    stripeEventId: { type: String, required: true },
    stripeEventCreatedAt: { type: Date, required: true },
    createdAt: { type: Date, required: true },
  },
  { collection: 'stripe_sale_links', versionKey: false },
);
// Read by _id only.

export const saleLinkModel = (db: Connection): Model<SaleLinkDoc> =>
  (db.models.StripeSaleLink as Model<SaleLinkDoc> | undefined) ?? db.model<SaleLinkDoc>('StripeSaleLink', saleLinkSchema);
