import { Schema, type Connection, type Model } from 'mongoose';
import type { EventSourceName } from './incentive-event.model';

/**
 * An event being processed. Inserted before any effect, deleted once the
 * event document is written, so the collection only holds work in flight:
 * small, cheap to scan. A claim whose lease ran out belongs to a process
 * that died; the recovery pass (or a retry with the same key) finishes it
 * from the input kept here.
 */
export interface EventClaimDoc {
  /** The event id. */
  _id: string;
  appId: string;
  userId: string;
  actionKey: string;
  idempotencyKey: string | null;
  source: EventSourceName;
  sourceEventId: string | null;
  metadataJson: string | null;
  /** When the event was received: its createdAt, whoever finishes it. */
  createdAt: Date;
  lockedUntil: Date;
}

const claimSchema = new Schema<EventClaimDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    userId: { type: String, required: true },
    actionKey: { type: String, required: true },
    idempotencyKey: { type: String, default: null },
    source: { type: String, required: true },
    sourceEventId: { type: String, default: null },
    metadataJson: { type: String, default: null },
    createdAt: { type: Date, required: true },
    lockedUntil: { type: Date, required: true },
  },
  { collection: 'event_claims', versionKey: false },
);
// The recovery pass: claims whose lease has run out (across apps: it is
// housekeeping, and each claim it takes carries its appId).
claimSchema.index({ lockedUntil: 1 });

export const eventClaimModel = (db: Connection): Model<EventClaimDoc> =>
  (db.models.IncentiveEventClaim as Model<EventClaimDoc> | undefined) ?? db.model<EventClaimDoc>('IncentiveEventClaim', claimSchema);
