import { Schema, type Connection, type Model } from 'mongoose';

/**
 * "Every app's board of this period has been snapshotted": written after a
 * pass finishes, so later passes (every minute, every replica) skip the
 * period with one _id lookup instead of scanning balances again.
 */
export interface SnapshotRunDoc {
  /** <period>:<periodKey>, e.g. DAILY:2026-11-20. Housekeeping across apps. */
  _id: string;
  finishedAt: Date;
  apps: number;
}

const snapshotRunSchema = new Schema<SnapshotRunDoc>(
  {
    _id: { type: String, required: true },
    finishedAt: { type: Date, required: true },
    apps: { type: Number, required: true },
  },
  { collection: 'leaderboard_snapshot_runs', versionKey: false },
);
// Read by _id only.

export const snapshotRunModel = (db: Connection): Model<SnapshotRunDoc> =>
  (db.models.SnapshotRun as Model<SnapshotRunDoc> | undefined) ?? db.model<SnapshotRunDoc>('SnapshotRun', snapshotRunSchema);
