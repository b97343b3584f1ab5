import { Schema, type Connection, type Model } from 'mongoose';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { StripeIntent } from './stripe-event-mapping';
import type { StripeEventRepository } from './stripe-event.repository';

/**
 * Where an event stands (the contract's StripeEventStatus): RECEIVED while
 * it is being applied (or its application was cut short: Stripe's retry
 * finishes it), then MATCHED, UNMATCHED, IGNORED, WAITING or REFUSED.
 */
export type StripeEventStatusName = 'RECEIVED' | 'MATCHED' | 'UNMATCHED' | 'IGNORED' | 'WAITING' | 'REFUSED';

/**
 * The record of one event Stripe posted to an app's integration, and what
 * it became. Its _id is `<appId>:<Stripe event id>`: the same event
 * delivered again (Stripe retries until it gets a 2xx) finds this record
 * instead of being applied a second time. Not the payload itself (it
 * carries the customer's details): what the event asks for (`intent`), which
 * is all a WAITING event needs to be applied later.
 */
export interface StripeEventDoc {
  _id: string;
  appId: string;
  integrationId: string;
  /** The integration's campaign when the event arrived: the one its checkout may convert in. */
  campaignId: string;
  /** Stripe's event id (evt_…). */
  stripeEventId: string;
  type: string;
  livemode: boolean;
  /** When Stripe created the event. */
  createdAt: Date;
  /** When it first reached the service. */
  receivedAt: Date;
  intent: StripeIntent;
  status: StripeEventStatusName;
  reasonCode: string;
  reason: string;
  conversionId: string | null;
  purchaseId: string | null;
  reversalId: string | null;
  /** A WAITING event's sale key (sale-link.model.ts): it is applied when a conversion or purchase carries that key. */
  waitingFor: string | null;
  /** Until when a WAITING event waits; past it, it reads UNMATCHED. */
  waitUntil: Date | null;
  /** When it reached its status. */
  settledAt: Date | null;
}

const stripeEventSchema = new Schema<StripeEventDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    integrationId: { type: String, required: true },
    campaignId: { type: String, required: true },
    stripeEventId: { type: String, required: true },
    type: { type: String, required: true },
    livemode: { type: Boolean, default: false },
    createdAt: { type: Date, required: true },
    receivedAt: { type: Date, required: true },
    // Plain JSON (numbers, strings, null): what the mapper read from the event.
    intent: { type: Schema.Types.Mixed, required: true },
    status: { type: String, required: true },
    reasonCode: { type: String, default: '' },
    reason: { type: String, default: '' },
    conversionId: { type: String, default: null },
    purchaseId: { type: String, default: null },
    reversalId: { type: String, default: null },
    waitingFor: { type: String, default: null },
    waitUntil: { type: Date, default: null },
    settledAt: { type: Date, default: null },
  },
  { collection: 'stripe_events', versionKey: false },
);
declareIndexes<QueryNames<StripeEventRepository>>(stripeEventSchema, [
  {
    keys: { appId: 1, receivedAt: -1, _id: -1 },
    serves: ['page'],
    why: "the app's events newest first (ties by id), without a status filter: the sort is the index order",
  },
  {
    keys: { appId: 1, status: 1, receivedAt: -1, _id: -1 },
    serves: ['page'],
    why: 'the same, of one stored status (UNMATCHED also reads the WAITING ones whose wait is over)',
  },
  {
    keys: { appId: 1, waitingFor: 1 },
    serves: ['waitingOn'],
    why: 'the events waiting for a sale key, when a conversion or purchase comes to carry it',
  },
]);

export const stripeEventModel = (db: Connection): Model<StripeEventDoc> =>
  (db.models.StripeEvent as Model<StripeEventDoc> | undefined) ?? db.model<StripeEventDoc>('StripeEvent', stripeEventSchema);
