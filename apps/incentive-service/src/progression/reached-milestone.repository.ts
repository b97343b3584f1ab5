import type { Connection } from 'mongoose';
import { Repository, type Page, type PageQuery } from '@ris/mongo';
import { reachedMilestoneModel, type ReachedMilestoneDoc } from './reached-milestone.model';

export interface ReachedListFilter {
  userId?: string;
  key?: string;
}

/** The milestones users reached (reached-milestone.model.ts): each once per user, by its derived id. */
export class ReachedMilestoneRepository extends Repository<ReachedMilestoneDoc> {
  constructor(db: Connection) {
    super(reachedMilestoneModel(db));
  }

  /** Stores that a user reached a milestone, unless it is stored already (a retried or recovered grant). */
  async record(reached: ReachedMilestoneDoc): Promise<void> {
    await this.insertNew([reached]);
  }

  /** GET /incentives/milestones: newest first, of the app, of one user, of one milestone (who reached it), or both. */
  page(appId: string, page: PageQuery, filter: ReachedListFilter = {}): Promise<Page<ReachedMilestoneDoc>> {
    const query: Record<string, string> = {};
    if (filter.userId) query.userId = filter.userId;
    if (filter.key) query.key = filter.key;
    return this.collection.page(appId, query, { reachedAt: -1, _id: 1 }, page);
  }
}
