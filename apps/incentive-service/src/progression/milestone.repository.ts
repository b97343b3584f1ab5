import type { Connection } from 'mongoose';
import { Repository, type Page, type PageQuery } from '@ris/mongo';
import { milestoneId } from '../events/derived-ids';
import { milestoneModel, type MilestoneDoc } from './milestone.model';

/** An app's milestone definitions: every question asked of them, by name (milestone.model.ts names the index of each). */
export class MilestoneRepository extends Repository<MilestoneDoc> {
  constructor(db: Connection) {
    super(milestoneModel(db));
  }

  /** A new milestone under the id its key derives, or the one stored under that key already (`created` says which). */
  create(appId: string, milestone: Omit<MilestoneDoc, 'appId'>): Promise<{ doc: MilestoneDoc; created: boolean }> {
    return this.insertOrGet(appId, milestone);
  }

  /** The milestone of a key, by the id the key derives. */
  byKey(appId: string, key: string): Promise<MilestoneDoc | null> {
    return this.collection.findById(appId, milestoneId(appId, key));
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
