import { Schema, type Connection, type Model } from 'mongoose';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { MilestoneMetricName } from './milestone-rules';
import type { MilestoneRepository } from './milestone.repository';

export interface MilestoneRewardsDoc {
  coins: number;
  xp: number;
  tokens: number;
  badgeKey: string | null;
}

/** A milestone definition. */
export interface MilestoneDoc {
  /** milestoneId(app, key). */
  _id: string;
  appId: string;
  key: string;
  name: string;
  description: string | null;
  metric: MilestoneMetricName;
  threshold: number;
  rewards: MilestoneRewardsDoc;
  /** STREAK only (absent on milestones from before streaks: read as null). */
  streakKey?: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** The operation key of the request that created it (see createDefinition); null without one. */
  createdByOperation?: string | null;
}

const milestoneSchema = new Schema<MilestoneDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    key: { type: String, required: true },
    name: { type: String, required: true },
    description: { type: String, default: null },
    metric: { type: String, required: true },
    threshold: { type: Number, required: true },
    rewards: {
      type: new Schema({ coins: Number, xp: Number, tokens: Number, badgeKey: { type: String, default: null } }, { _id: false }),
      required: true,
    },
    streakKey: { type: String, default: null },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
    createdByOperation: { type: String, default: null },
  },
  { collection: 'milestones', versionKey: false },
);
declareIndexes<QueryNames<MilestoneRepository>>(milestoneSchema, [
  {
    keys: { appId: 1, key: 1 },
    options: { unique: true },
    serves: ['create', 'all', 'page'],
    why: "keys are unique per app; the list of an app's definitions (read on every balance change, cached briefly) and GET …/milestones/definitions",
  },
]);

export const milestoneModel = (db: Connection): Model<MilestoneDoc> =>
  (db.models.Milestone as Model<MilestoneDoc> | undefined) ?? db.model<MilestoneDoc>('Milestone', milestoneSchema);
