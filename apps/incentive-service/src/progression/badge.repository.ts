import type { Connection } from 'mongoose';
import { Repository, type Page, type PageQuery } from '@ris/mongo';
import { badgeId } from '../events/derived-ids';
import { badgeModel, type BadgeDoc } from './badge.model';

/** An app's badge definitions: every question asked of them, by name (badge.model.ts names the index of each). */
export class BadgeRepository extends Repository<BadgeDoc> {
  constructor(db: Connection) {
    super(badgeModel(db));
  }

  /** A new badge under the id its key derives, or the one stored under that key already (`created` says which). */
  create(appId: string, badge: Omit<BadgeDoc, 'appId'>): Promise<{ doc: BadgeDoc; created: boolean }> {
    return this.insertOrGet(appId, badge);
  }

  /** The badge of a key, by the id the key derives. */
  byKey(appId: string, key: string): Promise<BadgeDoc | null> {
    return this.collection.findById(appId, badgeId(appId, key));
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
