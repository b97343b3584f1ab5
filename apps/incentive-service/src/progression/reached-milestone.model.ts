import { Schema, type Connection, type Model } from 'mongoose';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { MilestoneMetricName } from './milestone-rules';
import type { ReachedMilestoneRepository } from './reached-milestone.repository';

/** A milestone a user reached (the ledger's MILESTONE_REWARD entry is the exactly-once record). */
export interface ReachedMilestoneDoc {
  /** reachedMilestoneId(app, user, key). */
  _id: string;
  appId: string;
  userId: string;
  key: string;
  name: string;
  metric: MilestoneMetricName;
  threshold: number;
  reachedAt: Date;
}

const reachedSchema = new Schema<ReachedMilestoneDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    userId: { type: String, required: true },
    key: { type: String, required: true },
    name: { type: String, required: true },
    metric: { type: String, required: true },
    threshold: { type: Number, required: true },
    reachedAt: { type: Date, required: true },
  },
  { collection: 'reached_milestones', versionKey: false },
);
declareIndexes<QueryNames<ReachedMilestoneRepository>>(reachedSchema, [
  { keys: { appId: 1, reachedAt: -1 }, serves: ['page'], why: "GET /incentives/milestones: an app's reached milestones, newest first" },
  { keys: { appId: 1, key: 1, reachedAt: -1 }, serves: ['page'], why: 'GET /incentives/milestones?key=: who reached a milestone, newest first' },
  { keys: { appId: 1, userId: 1, key: 1 }, options: { unique: true }, serves: ['page', 'record'], why: 'GET /incentives/milestones?userId=… ; reached once per user and key' },
]);

export const reachedMilestoneModel = (db: Connection): Model<ReachedMilestoneDoc> =>
  (db.models.ReachedMilestone as Model<ReachedMilestoneDoc> | undefined) ??
  db.model<ReachedMilestoneDoc>('ReachedMilestone', reachedSchema);
