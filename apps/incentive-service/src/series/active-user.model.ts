import { Schema, type Connection, type Model } from 'mongoose';
import { declareIndexes, type QueryNames, type TimeBucketTarget } from '@ris/mongo';
import type { ActiveUserRepository } from './active-user.repository';

/**
 * "This user had an event in this UTC hour (or day)": inserted once per
 * user and bucket, and the insert that makes it increments the bucket's
 * activeUsers (incentive-series.ts). The day markers also answer the
 * distinct users of a range of days, the hour markers of a range of hours.
 */
export interface ActiveUserDoc extends Omit<TimeBucketTarget, '_id'> {
  /** `<appId>:<YYYY-MM-DDTHH or YYYY-MM-DD>:<userId>`: the _id index lets each user count once per bucket. */
  _id: string;
  appId: string;
  userId: string;
}

const activeUserSchema = new Schema<ActiveUserDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    userId: { type: String, required: true },
    interval: { type: String, required: true },
    start: { type: Date, required: true },
    partition: { type: String, required: true },
  },
  { collection: 'incentive_active_users', versionKey: false },
);
declareIndexes<QueryNames<ActiveUserRepository>>(activeUserSchema, [
  {
    keys: { appId: 1, interval: 1, partition: 1, start: 1 },
    serves: ['distinctUsers'],
    why: 'GET /incentives/stats/timeseries totals: the markers of a range of hours or days, by partition',
  },
]);

export const activeUserModel = (db: Connection): Model<ActiveUserDoc> =>
  (db.models.IncentiveActiveUser as Model<ActiveUserDoc> | undefined) ?? db.model<ActiveUserDoc>('IncentiveActiveUser', activeUserSchema);
