import { Schema, type Connection, type Model } from 'mongoose';
import { eventInputFields, type EventInputDoc } from './incentive-event.model';

/**
 * An event being processed. Inserted before any effect, deleted once the
 * event document is written, so the collection only holds work in flight:
 * small, cheap to scan. A claim whose lease ran out belongs to a process
 * that died; the recovery pass (or a retry with the same key) finishes it
 * from the input kept here.
 */
export interface EventClaimDoc extends EventInputDoc {
  lockedUntil: Date;
}

const claimSchema = new Schema<EventClaimDoc>(
  {
    ...eventInputFields,
    lockedUntil: { type: Date, required: true },
  },
  { collection: 'event_claims', versionKey: false },
);
// The recovery pass: claims whose lease has run out (across apps: it is
// housekeeping, and each claim it takes carries its appId).
claimSchema.index({ lockedUntil: 1 });

export const eventClaimModel = (db: Connection): Model<EventClaimDoc> =>
  (db.models.IncentiveEventClaim as Model<EventClaimDoc> | undefined) ?? db.model<EventClaimDoc>('IncentiveEventClaim', claimSchema);
