import type { FilterQuery, Model, ProjectionType, SortOrder, UpdateQuery } from 'mongoose';
import { duplicateKeyIndexes, isDuplicateKeyError } from './connect-mongo';
import { insertAsCreated } from './schema-insert';

export interface PageQuery {
  page: number;
  limit: number;
}

export interface Page<T> {
  items: T[];
  page: number;
  limit: number;
  totalItems: number;
}

type Sort = Record<string, SortOrder>;

/**
 * One page of the documents `filter` matches, in `sort` order, and how
 * many match in all. The filter is the caller's: scoped by AppScoped.page,
 * or across apps by a repository method that says why (pageAcrossApps).
 */
export async function pageOf<T>(model: Model<T>, filter: FilterQuery<T>, sort: Sort, page: PageQuery): Promise<Page<T>> {
  const [items, totalItems] = await Promise.all([
    model
      .find(filter)
      .sort(sort)
      .skip((page.page - 1) * page.limit)
      .limit(page.limit)
      .lean<T[]>()
      .exec(),
    model.countDocuments(filter).exec(),
  ]);
  return { items, page: page.page, limit: page.limit, totalItems };
}

/**
 * `update` on each document of `ids` that also matches `filter` (a guard
 * such as a lease token): one statement per id, sent in one round trip (an
 * unordered bulk write), each an `_id` lookup. updateMany with `_id: {$in:
 * ids}` is not pushed down by FerretDB v1, which then filters by the guard
 * alone, a scan of every document carrying it. How many matched (fewer
 * when the guard no longer holds for some). The filter is the caller's:
 * scoped by AppScoped.updateEach, or across apps (updateEachAcrossApps).
 */
export async function updateEachOf<T>(model: Model<T>, ids: readonly string[], filter: FilterQuery<T>, update: UpdateQuery<T>): Promise<number> {
  if (ids.length === 0) return 0;
  const writes = ids.map((_id) => ({ updateOne: { filter: { ...filter, _id }, update } }));
  // mongoose's bulk-write types do not accept its own FilterQuery/UpdateQuery; the shapes are the same.
  const result = await model.bulkWrite(writes as unknown as Parameters<Model<T>['bulkWrite']>[0], { ordered: false });
  return result.matchedCount;
}

/** The id when the filter is exactly {_id: '<string>'}, else null. */
function loneId(filter: object): string | null {
  const keys = Object.keys(filter);
  const id = (filter as { _id?: unknown })._id;
  return keys.length === 1 && keys[0] === '_id' && typeof id === 'string' ? id : null;
}

/**
 * Every read and write of a tenant's data goes through here, and every one
 * carries appId: a query that forgets the tenant cannot be written.
 * Documents are returned as plain objects (lean).
 *
 * A read by exactly {_id} is run as {_id} alone, with the raw driver, and
 * the document's appId checked here: appId never changes, so the check is
 * as good as the filter, and it is the cheapest read there is (no query
 * casting; on FerretDB's SQLite backend also the only one served by an
 * index). Writes keep appId in the filter.
 */
export class AppScoped<T extends { appId: string }> {
  constructor(readonly model: Model<T>) {}

  private scope(appId: string, filter: FilterQuery<T> = {}): FilterQuery<T> {
    if (!appId) throw new Error('appId is required for every query');
    return { ...filter, appId } as FilterQuery<T>;
  }

  /** The document with this _id if it belongs to the app (a lone-_id read; see the class comment). */
  async findById(appId: string, id: string): Promise<T | null> {
    if (!appId) throw new Error('appId is required for every query');
    // Measured 0.21 ms of CPU per read against 0.32 ms for mongoose's lean query.
    const doc = (await this.model.collection.findOne({ _id: id } as never)) as T | null;
    return doc && doc.appId === appId ? doc : null;
  }

  async create(appId: string, doc: Omit<T, 'appId'> & Partial<Pick<T, 'appId'>>): Promise<T> {
    return insertAsCreated(this.model, { ...doc, appId });
  }

  /**
   * Stores complete documents, possibly of several apps (a batch of many
   * requests), each carrying its own appId; with the raw driver (no
   * casting: the caller builds them whole) in one insertMany. Unordered by
   * default: a duplicate key does not stop the others, and is reported as
   * the driver's error afterwards. Ordered, the inserts stop at the first
   * failure, so the last document is stored only if all the others are.
   */
  async insertMany(docs: T[], options: { ordered?: boolean } = {}): Promise<void> {
    if (docs.length === 0) return;
    if (docs.some((doc) => !doc.appId)) throw new Error('appId is required for every document');
    await this.model.collection.insertMany(docs as never[], { ordered: options.ordered ?? false });
  }

  /**
   * Inserts a document under an _id derived from what it is (e.g. from a
   * request's operation key), or returns the one already there: the
   * "insert, catch the duplicate, read the winner" idiom, once. `created`
   * tells which. A duplicate on another unique index is raised.
   */
  createOrGet(appId: string, doc: Omit<T, 'appId'> & Partial<Pick<T, 'appId'>> & { _id: string }): Promise<{ doc: T; created: boolean }> {
    return this.createOrFind(appId, doc, () => this.findById(appId, doc._id));
  }

  /**
   * Inserts a document, or answers null when a unique index already holds
   * one like it (its _id, or another unique key such as "one per referee
   * and level"): the caller then reads the one there by that key, or draws
   * again.
   */
  async createUnlessTaken(appId: string, doc: Omit<T, 'appId'> & Partial<Pick<T, 'appId'>>): Promise<T | null> {
    try {
      return await this.create(appId, doc);
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      return null;
    }
  }

  /**
   * createOrGet() for documents unique by another key than their _id (one
   * flag per subject, one record per referee and level): inserts `doc`, or
   * returns the one `existing` reads by that key. A duplicate `existing`
   * does not find (another unique index) is raised.
   */
  async createOrFind(
    appId: string,
    doc: Omit<T, 'appId'> & Partial<Pick<T, 'appId'>>,
    existing: () => Promise<T | null>,
  ): Promise<{ doc: T; created: boolean }> {
    try {
      return { doc: await this.create(appId, doc), created: true };
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      const found = await existing();
      if (!found) throw err;
      return { doc: found, created: false };
    }
  }

  /**
   * insertMany() that takes a duplicate key as "already there": answers,
   * per document, whether this call inserted it. Any other failure is raised.
   */
  async insertManyNew(docs: T[]): Promise<boolean[]> {
    try {
      await this.insertMany(docs);
      return docs.map(() => true);
    } catch (err) {
      const duplicates = duplicateKeyIndexes(err);
      if (duplicates === null && docs.length === 1) return [false];
      if (duplicates === null || duplicates.has(-1)) throw err;
      return docs.map((_, i) => !duplicates.has(i));
    }
  }

  /**
   * insertManyNew() for a caller that copes with not knowing: null when the
   * store's duplicate-key error does not say which documents went in (some
   * may have). Any failure but a duplicate key is raised.
   */
  async insertManyNewIfKnown(docs: T[]): Promise<boolean[] | null> {
    try {
      await this.insertMany(docs);
      return docs.map(() => true);
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      const duplicates = duplicateKeyIndexes(err);
      if (duplicates === null) return docs.length === 1 ? [false] : null;
      // -1: a document failed for another reason (the error, a duplicate
      // key by its first failure, says so): raised, as it would be first.
      if (duplicates.has(-1)) throw err;
      return docs.map((_, i) => !duplicates.has(i));
    }
  }

  /**
   * Inserts documents in order, stopping at the first duplicate key: true
   * when all went in, false when one was taken (those before it are in,
   * it and those after it are not). For slots that must fill one after
   * another (a ledger's). Any other failure is raised.
   */
  async insertInOrder(docs: T[]): Promise<boolean> {
    return (await this.insertedInOrder(docs)) === docs.length;
  }

  /**
   * insertInOrder() that says how far it got: how many of the documents
   * went in (all of them, or those before the one a duplicate key stopped),
   * or null when the store's error does not say where it stopped. Any
   * other failure is raised.
   */
  async insertedInOrder(docs: T[]): Promise<number | null> {
    try {
      await this.insertMany(docs, { ordered: true });
      return docs.length;
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      const stoppedAt = duplicateKeyIndexes(err);
      if (stoppedAt === null || stoppedAt.size !== 1 || stoppedAt.has(-1)) return null;
      return [...stoppedAt][0];
    }
  }

  /**
   * A compare-and-set: `update` on the document `filter` names (with the
   * version it was read at), created when `upsert` (its first version).
   * False when the filter matched nothing, or when a concurrent first
   * writer created the document first (the upsert's duplicate _id): either
   * way someone else moved first, and the caller reads again. Concurrent
   * updates of one existing document at one version can each answer true
   * on FerretDB v1 (an update is a read, then a write): its writers run
   * them one at a time (SerialByKey); creations are refused by the _id.
   */
  async compareAndSet(appId: string, filter: FilterQuery<T>, update: UpdateQuery<T>, options: { upsert?: boolean } = {}): Promise<boolean> {
    try {
      const result = await this.model.updateOne(this.scope(appId, filter), update, { upsert: options.upsert ?? false }).exec();
      return result.matchedCount + result.upsertedCount > 0;
    } catch (err) {
      if (isDuplicateKeyError(err)) return false;
      throw err;
    }
  }

  findOne(appId: string, filter: FilterQuery<T>, projection?: ProjectionType<T>): Promise<T | null> {
    const id = projection ? null : loneId(filter);
    if (id !== null) return this.findById(appId, id);
    return this.model.findOne(this.scope(appId, filter), projection).lean<T>().exec();
  }

  find(appId: string, filter: FilterQuery<T>, options: { sort?: Sort; limit?: number } = {}): Promise<T[]> {
    let query = this.model.find(this.scope(appId, filter));
    if (options.sort) query = query.sort(options.sort);
    if (options.limit) query = query.limit(options.limit);
    return query.lean<T[]>().exec();
  }

  /** The _ids of the matching documents, and nothing else of them (a batch's members, say). */
  async findIds(appId: string, filter: FilterQuery<T>): Promise<string[]> {
    const docs = await this.model.find(this.scope(appId, filter), { _id: 1 }).lean<Array<{ _id: string }>>().exec();
    return docs.map((d) => d._id);
  }

  count(appId: string, filter: FilterQuery<T> = {}): Promise<number> {
    return this.model.countDocuments(this.scope(appId, filter)).exec();
  }

  /** How many distinct values `field` takes among the app's documents that match (one aggregation in the database). */
  async countDistinct(appId: string, field: keyof T & string, filter: FilterQuery<T> = {}): Promise<number> {
    const [result] = await this.model
      .aggregate<{ n: number }>([{ $match: this.scope(appId, filter) }, { $group: { _id: `$${field}` } }, { $count: 'n' }])
      .exec();
    return result?.n ?? 0;
  }

  async page(appId: string, filter: FilterQuery<T>, sort: Sort, page: PageQuery): Promise<Page<T>> {
    return pageOf(this.model, this.scope(appId, filter), sort, page);
  }

  /**
   * Every matching document in `sort`'s order, read as a cursor (batches
   * of `batchSize` from the database, one document at a time here): an
   * export of a whole list, which must not sit in memory.
   */
  stream(appId: string, filter: FilterQuery<T>, sort: Sort, batchSize = 500): AsyncIterable<T> {
    // Lean documents are T; mongoose types its cursor by Unpacked<T>.
    return this.model.find(this.scope(appId, filter)).sort(sort).lean<T>().cursor({ batchSize }) as unknown as AsyncIterable<T>;
  }

  /** Atomic single-document update; returns the document after it, or null if none matched. */
  findOneAndUpdate(
    appId: string,
    filter: FilterQuery<T>,
    update: UpdateQuery<T>,
    options: { upsert?: boolean } = {},
  ): Promise<T | null> {
    // No projection: FerretDB v1 rejects findAndModify with one.
    return this.model
      .findOneAndUpdate(this.scope(appId, filter), update, { new: true, upsert: options.upsert ?? false })
      .lean<T>()
      .exec();
  }

  async updateOne(appId: string, filter: FilterQuery<T>, update: UpdateQuery<T>): Promise<number> {
    const result = await this.model.updateOne(this.scope(appId, filter), update).exec();
    return result.modifiedCount;
  }

  /**
   * Deletes one matching document; returns how many were deleted (0 or 1).
   * Also an atomic "take": of concurrent deletes of one document exactly one
   * reports 1, on MongoDB and FerretDB alike.
   */
  async deleteOne(appId: string, filter: FilterQuery<T>): Promise<number> {
    const result = await this.model.deleteOne(this.scope(appId, filter)).exec();
    return result.deletedCount;
  }

  /** Deletes every matching document of the app; returns how many. */
  async deleteMany(appId: string, filter: FilterQuery<T>): Promise<number> {
    const result = await this.model.deleteMany(this.scope(appId, filter)).exec();
    return result.deletedCount;
  }

  /** updateEachOf, within the app: each of `ids` that is the app's and matches `filter`. */
  updateEach(appId: string, ids: readonly string[], filter: FilterQuery<T>, update: UpdateQuery<T>): Promise<number> {
    return updateEachOf(this.model, ids, this.scope(appId, filter), update);
  }

  async updateMany(appId: string, filter: FilterQuery<T>, update: UpdateQuery<T>): Promise<number> {
    const result = await this.model.updateMany(this.scope(appId, filter), update).exec();
    return result.modifiedCount;
  }

  /**
   * Counters kept on write: `$inc` on the one document `filter` names,
   * created on first use (with `setOnInsert`'s fields, if given). `filter`
   * must match a unique index; two first increments racing on it make one
   * upsert fail with E11000 (MongoDB and FerretDB alike), and that one is
   * retried as a plain update.
   */
  increment(appId: string, filter: FilterQuery<T>, inc: Record<string, number>, setOnInsert?: Partial<T>): Promise<void> {
    return this.upsertOne(appId, filter, (setOnInsert ? { $inc: inc, $setOnInsert: setOnInsert } : { $inc: inc }) as UpdateQuery<T>);
  }

  /**
   * `update` on the one document `filter` names, created by it when
   * missing: as increment(), any update (its $setOnInsert fills what the
   * other operators do not set). The same retry of a racing first write.
   */
  async upsertOne(appId: string, filter: FilterQuery<T>, update: UpdateQuery<T>): Promise<void> {
    const scoped = this.scope(appId, filter);
    try {
      await this.model.updateOne(scoped, update, { upsert: true }).exec();
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      await this.model.updateOne(scoped, update, { upsert: true }).exec();
    }
  }
}
