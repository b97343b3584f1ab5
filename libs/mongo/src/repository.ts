import type { FilterQuery, IndexDefinition, IndexOptions, Model, Schema, SortOrder, UpdateQuery } from 'mongoose';
import { AppScoped, pageOf, updateEachOf, type Page, type PageQuery } from './app-scoped';
import { dropRetiredIndexes } from './retired-indexes';

/** The names of a repository's query methods: its public methods that answer a promise or a stream. */
export type QueryNames<R> = {
  // A query answers at once (a promise) or as a stream (a cursor's async iterable).
  [K in keyof R]: R[K] extends (...args: never[]) => Promise<unknown> | AsyncIterable<unknown> ? K : never;
}[keyof R] &
  string;

export interface IndexDeclaration<Q extends string> {
  keys: IndexDefinition;
  options?: IndexOptions;
  /** The repository's query methods this index answers: an index no query names is one to drop. */
  serves: readonly [Q, ...Q[]];
  /** What the queries ask, when the names do not say it. */
  why?: string;
}

/**
 * Declares a collection's indexes, each with the named queries it serves
 * (`declareIndexes<QueryNames<SignalRepository>>(schema, [...])`): the
 * compiler checks that each names a query of the repository, so the rule
 * "every index says which query it serves" holds by construction.
 */
export function declareIndexes<Q extends string>(schema: Schema, indexes: ReadonlyArray<IndexDeclaration<Q>>): void {
  for (const index of indexes) schema.index(index.keys, index.options);
}

type Id = { _id: string; appId: string };

/**
 * One entity's store (Novu's repositories, on top of AppScoped): domain
 * modules call its named queries ("the referral signal of a code", "signals
 * of an IP in a window") and never write a filter, so a rule such as "which
 * records count" lives in one method. Every read and write carries the
 * tenant (AppScoped), and the "insert, or get the one already there"
 * idiom is here once.
 *
 * Subclasses keep `collection` to themselves (protected); main.ts builds
 * them from the connection, and passes them to the domain modules.
 */
export abstract class Repository<T extends Id> {
  protected readonly collection: AppScoped<T>;

  protected constructor(model: Model<T>) {
    this.collection = new AppScoped(model);
  }

  /**
   * The collection without the tenant, for the few passes that serve every
   * app at once (a recovery pass, retention, a dispatcher's claim across
   * tenants, a maintenance command): each method using it says why, and
   * every write it leads to carries the document's appId again.
   */
  protected get acrossApps(): Model<T> {
    return this.collection.model;
  }

  /**
   * A page of documents of any app, for a read that is across apps by
   * design (a public listing of every app's offers, either party of a
   * deal between two apps): the method using it says why.
   */
  protected pageAcrossApps(filter: FilterQuery<T>, sort: Record<string, SortOrder>, page: PageQuery): Promise<Page<T>> {
    return pageOf(this.acrossApps, filter, sort, page);
  }

  /**
   * updateEachOf across apps, for a write that serves every app by design
   * (a dispatcher's claim of due work of any tenant): the method using it
   * says why.
   */
  protected updateEachAcrossApps(ids: readonly string[], filter: FilterQuery<T>, update: UpdateQuery<T>): Promise<number> {
    return updateEachOf(this.acrossApps, ids, filter, update);
  }

  /** The app's document with this id, or null (also another app's: null). */
  findById(appId: string, id: string): Promise<T | null> {
    return this.collection.findById(appId, id);
  }

  /** Builds the collection's indexes now (start-up, tests), and drops those retired; mongoose builds them in the background otherwise. */
  async ensureIndexes(): Promise<void> {
    await this.collection.model.init();
    await dropRetiredIndexes(this.collection.model);
  }

  /**
   * Inserts `doc` under its _id (derived from what it is: an operation key,
   * a subject), or returns the document already there: a retry, a replica
   * racing this one. `created` tells which.
   */
  protected insertOrGet(appId: string, doc: Omit<T, 'appId'> & { _id: string }): Promise<{ doc: T; created: boolean }> {
    return this.collection.createOrGet(appId, doc as Omit<T, 'appId'> & Partial<Pick<T, 'appId'>> & { _id: string });
  }

  /**
   * Inserts `doc` unique by another key than its _id (one per subject, per
   * referee and level…), or returns the one there, which `existing` reads
   * by that key: a retry, a replica racing this one. `created` tells which.
   */
  protected insertOrFind(appId: string, doc: Omit<T, 'appId'>, existing: () => Promise<T | null>): Promise<{ doc: T; created: boolean }> {
    return this.collection.createOrFind(appId, doc as Omit<T, 'appId'> & Partial<Pick<T, 'appId'>>, existing);
  }

  /**
   * Inserts `doc`, or answers null when a unique index holds one like it
   * already: for callers that then look again by their own key, or draw
   * another value for it (a random code), rather than take the one there.
   */
  protected insertUnlessTaken(appId: string, doc: Omit<T, 'appId'>): Promise<T | null> {
    return this.collection.createUnlessTaken(appId, doc as Omit<T, 'appId'> & Partial<Pick<T, 'appId'>>);
  }

  /**
   * Inserts complete documents (of one app or of many, each with its own
   * appId) in one write, each idempotent by its _id: per document, whether
   * this call inserted it (false: it was there already).
   */
  protected insertNew(docs: T[]): Promise<boolean[]> {
    return this.collection.insertManyNew(docs);
  }

  /** insertNew() that answers null, rather than failing, when the store does not say which documents went in. */
  protected insertNewIfKnown(docs: T[]): Promise<boolean[] | null> {
    return this.collection.insertManyNewIfKnown(docs);
  }

  /** Inserts documents in order, stopping at the first duplicate key: false when one was taken (those before it are in). */
  protected insertInOrder(docs: T[]): Promise<boolean> {
    return this.collection.insertInOrder(docs);
  }

  /** insertInOrder() that says how many went in (null: the store did not say where it stopped). */
  protected insertedInOrder(docs: T[]): Promise<number | null> {
    return this.collection.insertedInOrder(docs);
  }
}
