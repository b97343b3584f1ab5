import type { AppScoped } from './app-scoped';
import { GroupCommit, type GroupCommitOptions } from './group-commit';

/**
 * Inserts of complete documents (each with its appId) that arrive together
 * go to the database as one insertMany (group commit): under load many
 * requests share one write and one round trip. Each caller learns whether
 * its own document went in; false when a unique index already held one
 * like it (its _id, or another unique key), which never fails the others.
 * Nothing is acknowledged before the write that stored it.
 */
export class GroupedInserts<T extends { appId: string }> {
  private readonly commit: GroupCommit<T, boolean>;

  constructor(collection: AppScoped<T>, options: GroupCommitOptions = {}) {
    this.commit = new GroupCommit((docs) => collection.insertManyNew(docs), options);
  }

  insertNew(doc: T): Promise<boolean> {
    return this.commit.add(doc);
  }
}
