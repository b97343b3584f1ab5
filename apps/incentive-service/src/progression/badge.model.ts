import { Schema, type Connection, type Model } from 'mongoose';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { BadgeRepository } from './badge.repository';

export interface BadgeDoc {
  /** badgeId(app, key). */
  _id: string;
  appId: string;
  key: string;
  name: string;
  description: string | null;
  imageUrl: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** The operation key of the request that created it (see createDefinition); null without one. */
  createdByOperation?: string | null;
}

const badgeSchema = new Schema<BadgeDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    key: { type: String, required: true },
    name: { type: String, required: true },
    description: { type: String, default: null },
    imageUrl: { type: String, default: null },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
    createdByOperation: { type: String, default: null },
  },
  { collection: 'badges', versionKey: false },
);
declareIndexes<QueryNames<BadgeRepository>>(badgeSchema, [
  { keys: { appId: 1, key: 1 }, options: { unique: true }, serves: ['create', 'withKeys', 'page'], why: 'keys are unique per app; GET /incentives/badges in key order' },
]);

export const badgeModel = (db: Connection): Model<BadgeDoc> =>
  (db.models.Badge as Model<BadgeDoc> | undefined) ?? db.model<BadgeDoc>('Badge', badgeSchema);
