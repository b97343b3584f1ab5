import type { FilterQuery, Model, ProjectionType, SortOrder, UpdateQuery } from 'mongoose';

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
 * Every read and write of a tenant's data goes through here, and every one
 * carries appId: a query that forgets the tenant cannot be written.
 * Documents are returned as plain objects (lean).
 */
export class AppScoped<T extends { appId: string }> {
  constructor(readonly model: Model<T>) {}

  private scope(appId: string, filter: FilterQuery<T> = {}): FilterQuery<T> {
    if (!appId) throw new Error('appId is required for every query');
    return { ...filter, appId } as FilterQuery<T>;
  }

  async create(appId: string, doc: Omit<T, 'appId'> & Partial<Pick<T, 'appId'>>): Promise<T> {
    const created = await this.model.create({ ...doc, appId });
    return created.toObject() as T;
  }

  findOne(appId: string, filter: FilterQuery<T>, projection?: ProjectionType<T>): Promise<T | null> {
    return this.model.findOne(this.scope(appId, filter), projection).lean<T>().exec();
  }

  find(appId: string, filter: FilterQuery<T>, options: { sort?: Sort; limit?: number } = {}): Promise<T[]> {
    let query = this.model.find(this.scope(appId, filter));
    if (options.sort) query = query.sort(options.sort);
    if (options.limit) query = query.limit(options.limit);
    return query.lean<T[]>().exec();
  }

  count(appId: string, filter: FilterQuery<T> = {}): Promise<number> {
    return this.model.countDocuments(this.scope(appId, filter)).exec();
  }

  async page(appId: string, filter: FilterQuery<T>, sort: Sort, page: PageQuery): Promise<Page<T>> {
    const scoped = this.scope(appId, filter);
    const [items, totalItems] = await Promise.all([
      this.model
        .find(scoped)
        .sort(sort)
        .skip((page.page - 1) * page.limit)
        .limit(page.limit)
        .lean<T[]>()
        .exec(),
      this.model.countDocuments(scoped).exec(),
    ]);
    return { items, page: page.page, limit: page.limit, totalItems };
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
}
