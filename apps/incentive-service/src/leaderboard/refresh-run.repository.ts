import type { Connection } from 'mongoose';
import { Repository, SerialByKey, type Page, type PageQuery } from '@ris/mongo';
import { RUNNING_SLOT, refreshRunModel, type RefreshRunDoc } from './refresh-run.model';

/** Leaderboard refresh runs (refresh-run.model.ts). */
export class RefreshRunRepository extends Repository<RefreshRunDoc> {
  // A run's progress and heartbeat are written from two places (each batch, a timer):
  // one write at a time per run (FerretDB runs an update as a read and a write).
  private readonly writes = new SerialByKey();

  constructor(db: Connection) {
    super(refreshRunModel(db));
  }

  /** Inserts a RUNNING run, or null when the app has one RUNNING already (the unique slot), or the id is taken. */
  start(appId: string, run: Omit<RefreshRunDoc, 'appId' | 'slot' | 'status'>): Promise<RefreshRunDoc | null> {
    return this.insertUnlessTaken(appId, { ...run, slot: RUNNING_SLOT, status: 'RUNNING' });
  }

  /** The app's RUNNING run, if any (alive or not). */
  running(appId: string): Promise<RefreshRunDoc | null> {
    return this.collection.findOne(appId, { slot: RUNNING_SLOT });
  }

  /** Progress of a running run: users written so far, and a heartbeat. */
  progress(appId: string, id: string, set: Partial<Pick<RefreshRunDoc, 'usersDone' | 'usersTotal'>>): Promise<number> {
    return this.writes.run(id, () => this.collection.updateOne(appId, { _id: id, slot: RUNNING_SLOT }, { $set: { ...set, heartbeatAt: new Date() } }));
  }

  /**
   * Ends a RUNNING run (its slot freed): SUCCEEDED or FAILED with what it
   * did. `heartbeatAt`, when given, must still be the one read: a stale run
   * is ended by whoever read it stale, once.
   */
  finish(appId: string, id: string, outcome: Pick<RefreshRunDoc, 'status' | 'error' | 'finishedAt' | 'durationMs'> & Partial<Pick<RefreshRunDoc, 'usersDone' | 'usersTotal'>>, heartbeatAt?: Date): Promise<number> {
    const filter = { _id: id, slot: RUNNING_SLOT, ...(heartbeatAt ? { heartbeatAt } : {}) };
    return this.writes.run(id, () => this.collection.updateOne(appId, filter, { $set: { ...outcome, slot: id } }));
  }

  /** The app's runs, newest first. */
  list(appId: string, page: PageQuery): Promise<Page<RefreshRunDoc>> {
    return this.collection.page(appId, {}, { startedAt: -1, _id: -1 }, page);
  }
}
