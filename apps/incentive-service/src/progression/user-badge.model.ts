import { Schema, type Connection, type Model } from 'mongoose';
import { carriesEvents, type OutboxFields } from '@ris/events';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { UserBadgeRepository } from './user-badge.repository';

export type BadgeSourceName = 'MANUAL' | 'LEVEL' | 'MILESTONE' | 'STREAK';

export interface UserBadgeDoc extends OutboxFields {
  /** userBadgeId(app, user, badge key). */
  _id: string;
  appId: string;
  userId: string;
  badgeKey: string;
  source: BadgeSourceName;
  /** Level number or milestone key; null for a manual award. */
  sourceId: string | null;
  awardedAt: Date;
  /** A manual award's request operation key (from its Idempotency-Key): its retry is answered as the award. */
  awardedByOperation?: string | null;
}

const userBadgeSchema = new Schema<UserBadgeDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    userId: { type: String, required: true },
    badgeKey: { type: String, required: true },
    source: { type: String, required: true },
    sourceId: { type: String, default: null },
    awardedAt: { type: Date, required: true },
    awardedByOperation: { type: String, default: null },
  },
  { collection: 'user_badges', versionKey: false },
);
declareIndexes<QueryNames<UserBadgeRepository>>(userBadgeSchema, [
  {
    keys: { appId: 1, userId: 1, badgeKey: 1 },
    options: { unique: true },
    serves: ['award', 'ofUser'],
    why: 'a badge at most once per user, whoever awards it (level, milestone, by hand) and however many times at once; GET /incentives/badges/user/{userId}',
  },
  { keys: { appId: 1, badgeKey: 1, awardedAt: -1, userId: 1 }, serves: ['ofBadge'], why: "GET /incentives/badges/{key}/holders: a badge's awards, newest first" },
]);

// incentive.badge_awarded is stored with the award, until published.
carriesEvents(userBadgeSchema);

export const userBadgeModel = (db: Connection): Model<UserBadgeDoc> =>
  (db.models.UserBadge as Model<UserBadgeDoc> | undefined) ?? db.model<UserBadgeDoc>('UserBadge', userBadgeSchema);
