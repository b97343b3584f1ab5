import { Schema, type Connection, type Model } from 'mongoose';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { LeaderboardSnapshotRepository } from './leaderboard-snapshot.repository';
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
declareIndexes<QueryNames<LeaderboardSnapshotRepository>>(snapshotSchema, [
  { keys: { appId: 1, period: 1, endsAt: -1 }, serves: ['page'], why: 'GET /incentives/leaderboard/snapshots?period=…: newest first' },
  { keys: { appId: 1, endsAt: -1 }, serves: ['page'], why: 'GET /incentives/leaderboard/snapshots (every period)' },
]);

export const leaderboardSnapshotModel = (db: Connection): Model<LeaderboardSnapshotDoc> =>
  (db.models.LeaderboardSnapshot as Model<LeaderboardSnapshotDoc> | undefined) ??
  db.model<LeaderboardSnapshotDoc>('LeaderboardSnapshot', snapshotSchema);
