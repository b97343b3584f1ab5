import { Schema, type Connection, type Model } from 'mongoose';
import { carriesEvents, type OutboxFields } from '@ris/events';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { EngagementUserRepository } from './engagement-user.repository';
import type { StreakState } from './streak-progress';

/**
 * A user's engagement: their time zone (PUT /incentives/users/{userId}/settings)
 * and their progress on each streak. One document per user, read once per
 * event batch of an app with streaks and written only when a streak moves
 * (the first qualifying event of a period, a freeze, an end). Every write is
 * a compare-and-set on `v`.
 */
export interface EngagementUserDoc extends OutboxFields {
  /** engagementUserId(app, user). */
  _id: string;
  appId: string;
  userId: string;
  /** IANA name; null: never set (UTC). */
  timeZone: string | null;
  /** By streak key. */
  streaks: Record<string, StreakState>;
  /** When the streak pass must look at it next (a running streak's period ran out); absent: nothing to do. */
  checkAt?: Date;
  v: number;
  createdAt: Date;
  updatedAt: Date;
}

const engagementUserSchema = new Schema<EngagementUserDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    userId: { type: String, required: true },
    timeZone: { type: String, default: null },
    // By streak key (keys are definition keys: no "." or "$").
    streaks: { type: Schema.Types.Mixed, default: {} },
    checkAt: { type: Date, default: undefined },
    v: { type: Number, required: true },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'engagement_users', versionKey: false, minimize: false },
);
declareIndexes<QueryNames<EngagementUserRepository>>(engagementUserSchema, [
  {
    keys: { checkAt: 1 },
    options: { sparse: true },
    serves: ['due'],
    why: 'the streak pass (every app: a system job): users whose running streak missed a period by now; sparse, as most users have nothing due',
  },
]);
// incentive.streak_* events ride on the write that moved the streak.
carriesEvents(engagementUserSchema);

export const engagementUserModel = (db: Connection): Model<EngagementUserDoc> =>
  (db.models.EngagementUser as Model<EngagementUserDoc> | undefined) ?? db.model<EngagementUserDoc>('EngagementUser', engagementUserSchema);
