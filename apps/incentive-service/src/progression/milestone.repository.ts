import type { Connection } from 'mongoose';
import type { Page, PageQuery } from '@ris/mongo';
import { DefinitionRepository } from '../definitions/definition.repository';
import { milestoneId } from '../events/derived-ids';
import { milestoneModel, type MilestoneDoc } from './milestone.model';

/** An app's milestone definitions: every question asked of them, by name (milestone.model.ts names the index of each). */
export class MilestoneRepository extends DefinitionRepository<MilestoneDoc> {
  constructor(db: Connection) {
    super(milestoneModel(db), milestoneId);
  }

  /** GET /incentives/milestones/definitions: in key order. */
  page(appId: string, page: PageQuery): Promise<Page<MilestoneDoc>> {
    return this.collection.page(appId, {}, { key: 1 }, page);
  }

  /** Every definition of the app, in key order (checked on every balance change). */
  all(appId: string): Promise<MilestoneDoc[]> {
    return this.collection.find(appId, {}, { sort: { key: 1 } });
  }
}
