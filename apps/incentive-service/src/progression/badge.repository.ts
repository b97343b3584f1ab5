import type { Connection } from 'mongoose';
import type { Page, PageQuery } from '@ris/mongo';
import { DefinitionRepository } from '../definitions/definition.repository';
import { badgeId } from '../events/derived-ids';
import { badgeModel, type BadgeDoc } from './badge.model';

/** An app's badge definitions: every question asked of them, by name (badge.model.ts names the index of each). */
export class BadgeRepository extends DefinitionRepository<BadgeDoc> {
  constructor(db: Connection) {
    super(badgeModel(db), badgeId);
  }

  /** The badges of several keys (the badges of a page of awards). */
  withKeys(appId: string, keys: string[]): Promise<BadgeDoc[]> {
    return keys.length ? this.collection.find(appId, { key: { $in: keys } }) : Promise.resolve([]);
  }

  /** GET /incentives/badges: in key order. */
  page(appId: string, page: PageQuery): Promise<Page<BadgeDoc>> {
    return this.collection.page(appId, {}, { key: 1 }, page);
  }

  /** Stores a badge's name, description and image; null when it is not there. */
  replace(appId: string, badge: Pick<BadgeDoc, '_id' | 'name' | 'description' | 'imageUrl'>): Promise<BadgeDoc | null> {
    const { _id, name, description, imageUrl } = badge;
    return this.collection.findOneAndUpdate(appId, { _id }, { $set: { name, description, imageUrl, updatedAt: new Date() } });
  }
}
