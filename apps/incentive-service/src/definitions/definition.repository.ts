import type { FilterQuery, Model, UpdateQuery } from 'mongoose';
import { Repository } from '@ris/mongo';

/** An action, badge or milestone: unique per app by its key, stored under the id the key derives. */
export interface DefinitionDoc {
  _id: string;
  appId: string;
  key: string;
  /** The operation key of the request that created it (see createDefinition); null without one. */
  createdByOperation?: string | null;
}

/**
 * The store of one kind of definition: created under the id its key
 * derives (a second create of the key finds the first), read by key.
 */
export abstract class DefinitionRepository<T extends DefinitionDoc> extends Repository<T> {
  protected constructor(
    model: Model<T>,
    /** The definition's id from its app and key (derived-ids.ts). */
    private readonly idOf: (appId: string, key: string) => string,
  ) {
    super(model);
  }

  /** A new definition under the id its key derives, or the one stored under that key already (`created` says which). */
  create(appId: string, definition: Omit<T, 'appId'> & { _id: string }): Promise<{ doc: T; created: boolean }> {
    return this.insertOrGet(appId, definition);
  }

  /** The definition of a key, by the id the key derives. */
  byKey(appId: string, key: string): Promise<T | null> {
    return this.collection.findById(appId, this.idOf(appId, key));
  }

  /** Stores a definition's changed fields (all but its id, app, key and creation); null when it is not there. */
  storeChanges(appId: string, definition: T): Promise<T | null> {
    const { _id, appId: _app, key: _key, ...rest } = definition;
    const { createdAt: _created, ...changes } = rest as Record<string, unknown>;
    return this.collection.findOneAndUpdate(appId, { _id } as FilterQuery<T>, { $set: { ...changes, updatedAt: new Date() } } as UpdateQuery<T>);
  }

  /** Removes the definition of a key: false when there was none. */
  async removeKey(appId: string, key: string): Promise<boolean> {
    return (await this.collection.deleteOne(appId, { _id: this.idOf(appId, key) } as FilterQuery<T>)) > 0;
  }
}
