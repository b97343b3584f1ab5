import { Schema, type Connection, type Model } from 'mongoose';
import type { Period } from './period-keys';

export interface SnapshotEntry {
  rank: number;
  userId: string;
  xp: number;
  coins: number;
}

/** The top of one board when its period ended. */
export interface LeaderboardSnapshotDoc {
  /** snapshotId(app, period, periodKey): each board is snapshotted once, whichever replica gets there first. */
  _id: string;
  appId: string;
  period: Period;
  periodKey: string;
  startsAt: Date | null;
  endsAt: Date;
  takenAt: Date;
  entries: SnapshotEntry[];
  totalUsers: number;
}

const snapshotSchema = new Schema<LeaderboardSnapshotDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    period: { type: String, required: true },
    periodKey: { type: String, required: true },
    startsAt: { type: Date, default: null },
    endsAt: { type: Date, required: true },
    takenAt: { type: Date, required: true },
    entries: { type: [new Schema({ rank: Number, userId: String, xp: Number, coins: Number }, { _id: false })], default: [] },
    totalUsers: { type: Number, required: true },
  },
  { collection: 'leaderboard_snapshots', versionKey: false },
);
// GET /incentives/leaderboard/snapshots?period=…: newest first.
snapshotSchema.index({ appId: 1, period: 1, endsAt: -1 });
// GET /incentives/leaderboard/snapshots (every period).
snapshotSchema.index({ appId: 1, endsAt: -1 });

export const leaderboardSnapshotModel = (db: Connection): Model<LeaderboardSnapshotDoc> =>
  (db.models.LeaderboardSnapshot as Model<LeaderboardSnapshotDoc> | undefined) ??
  db.model<LeaderboardSnapshotDoc>('LeaderboardSnapshot', snapshotSchema);
