import { Schema, type Connection, type Model } from 'mongoose';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { EventClaimRepository } from './event-claim.repository';
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
  /** The process holding the claim (ProcessLiveness): when it dies, the claim is taken over at once. Null on older claims. */
  holder?: string | null;
}

const claimSchema = new Schema<EventClaimDoc>(
  {
    ...eventInputFields,
    lockedUntil: { type: Date, required: true },
    holder: { type: String, default: null },
  },
  { collection: 'event_claims', versionKey: false },
);
declareIndexes<QueryNames<EventClaimRepository>>(claimSchema, [
  {
    keys: { lockedUntil: 1 },
    serves: ['oldest'],
    why: 'the recovery pass: claims oldest lease first (across apps: it is housekeeping, and each claim it takes carries its appId); it takes those whose lease ran out or whose holder died',
  },
]);

export const eventClaimModel = (db: Connection): Model<EventClaimDoc> =>
  (db.models.IncentiveEventClaim as Model<EventClaimDoc> | undefined) ?? db.model<EventClaimDoc>('IncentiveEventClaim', claimSchema);
