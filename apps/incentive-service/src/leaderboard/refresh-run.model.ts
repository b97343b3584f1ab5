import { Schema, type Connection, type Model } from 'mongoose';
import type { EnumName, RefreshRunStatus } from '@ris/contracts';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { RefreshRunRepository } from './refresh-run.repository';

export type RefreshRunStatusName = EnumName<typeof RefreshRunStatus>;

/** While a run is RUNNING its slot is this; afterwards, its own _id (see the unique index). */
export const RUNNING_SLOT = 'RUNNING';

/**
 * A rebuild of an app's leaderboards from MongoDB started with
 * POST /incentives/leaderboard/refresh-runs: its progress, updated per
 * batch of users written, and its outcome. Its holder beats `heartbeatAt`
 * while it runs; a RUNNING run whose heartbeat stopped (the process died)
 * reads FAILED, and a new run may take its place.
 */
export interface RefreshRunDoc {
  /** lbr_<operation key> (a retried request finds its run) or random. */
  _id: string;
  appId: string;
  /** RUNNING_SLOT while running, the run's _id once finished: the unique index lets one run per app run at a time. */
  slot: string;
  status: RefreshRunStatusName;
  usersDone: number;
  /** The users to write, counted when the run started; on success, the users written. */
  usersTotal: number;
  startedAt: Date;
  heartbeatAt: Date;
  finishedAt: Date | null;
  durationMs: number | null;
  error: string | null;
}

const refreshRunSchema = new Schema<RefreshRunDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    slot: { type: String, required: true },
    status: { type: String, required: true },
    usersDone: { type: Number, required: true },
    usersTotal: { type: Number, required: true },
    startedAt: { type: Date, required: true },
    heartbeatAt: { type: Date, required: true },
    finishedAt: { type: Date, default: null },
    durationMs: { type: Number, default: null },
    error: { type: String, default: null },
  },
  { collection: 'leaderboard_refresh_runs', versionKey: false },
);
declareIndexes<QueryNames<RefreshRunRepository>>(refreshRunSchema, [
  {
    keys: { appId: 1, slot: 1 },
    options: { unique: true },
    serves: ['start', 'running'],
    why: 'one RUNNING run per app, decided by the insert; the app’s running run',
  },
  { keys: { appId: 1, startedAt: -1, _id: -1 }, serves: ['list'], why: 'GET /incentives/leaderboard/refresh-runs, newest first' },
]);

export const refreshRunModel = (db: Connection): Model<RefreshRunDoc> =>
  (db.models.LeaderboardRefreshRun as Model<RefreshRunDoc> | undefined) ?? db.model<RefreshRunDoc>('LeaderboardRefreshRun', refreshRunSchema);
