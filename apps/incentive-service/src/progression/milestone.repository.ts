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

  /** Stores a milestone's changed fields (all but its id, app, key and creation); null when it is not there. */
  replace(appId: string, milestone: MilestoneDoc): Promise<MilestoneDoc | null> {
    const { _id, appId: _app, key: _key, createdAt: _created, ...changes } = milestone;
    return this.collection.findOneAndUpdate(appId, { _id }, { $set: { ...changes, updatedAt: new Date() } });
  }

  async remove(appId: string, id: string): Promise<void> {
    await this.collection.deleteOne(appId, { _id: id });
  }
}
