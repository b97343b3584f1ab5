import type { Connection, Model } from 'mongoose';
import { insertOnce } from '@ris/mongo';
import { snapshotRunModel, type SnapshotRunDoc } from './snapshot-run.model';

/**
 * The snapshot passes that finished (snapshot-run.model.ts): housekeeping
 * across apps, so of no app (not a Repository, whose documents each have
 * one); read and written by _id only.
 */
export class SnapshotRunRepository {
  private readonly runs: Model<SnapshotRunDoc>;

  constructor(db: Connection) {
    this.runs = snapshotRunModel(db);
  }

  /** Whether every app's board of this period was snapshotted (`<period>:<periodKey>`). */
  async done(runId: string): Promise<boolean> {
    return (await this.runs.exists({ _id: runId }).exec()) !== null;
  }

  /** Records a finished pass, unless a replica recorded it first. */
  async record(runId: string, apps: number): Promise<void> {
    await insertOnce(this.runs, { _id: runId, finishedAt: new Date(), apps });
  }
}
