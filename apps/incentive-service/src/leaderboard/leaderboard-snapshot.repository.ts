import type { Connection } from 'mongoose';
import { Repository, type Page, type PageQuery } from '@ris/mongo';
import { leaderboardSnapshotModel, type LeaderboardSnapshotDoc } from './leaderboard-snapshot.model';
import type { Period } from './period-keys';

/** The snapshots of the boards when their periods ended (leaderboard-snapshot.model.ts), each stored once. */
export class LeaderboardSnapshotRepository extends Repository<LeaderboardSnapshotDoc> {
  constructor(db: Connection) {
    super(leaderboardSnapshotModel(db));
  }

  /** Whether the snapshot of this id (derived from app, period and period key) is stored. */
  async has(appId: string, id: string): Promise<boolean> {
    return (await this.collection.findById(appId, id)) !== null;
  }

  /** Stores a snapshot under its derived id: false when another replica stored it first. */
  async record(snapshot: LeaderboardSnapshotDoc): Promise<boolean> {
    const [inserted] = await this.insertNew([snapshot]);
    return inserted;
  }

  /** GET /incentives/leaderboard/snapshots: newest first, of one period or all. */
  page(appId: string, page: PageQuery, period?: Period): Promise<Page<LeaderboardSnapshotDoc>> {
    return this.collection.page(appId, period ? { period } : {}, { endsAt: -1, period: 1 }, page);
  }
}
