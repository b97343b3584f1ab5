import type { FilterQuery, Model, UpdateQuery } from 'mongoose';
import { Repository, type Page, type PageQuery } from '@ris/mongo';
import type { StockMarkers } from './stock-markers';

/** What a good (catalog item or listing) carries for its owner's management and its stock moves. */
export type Good = StockMarkers & {
  _id: string;
  appId: string;
  published: boolean;
  /** Soft delete: set once, and the good is gone from its owner's API but not from history. */
  deletedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

/**
 * The queries catalog items and listings share: their owner's view (live,
 * i.e. not deleted, goods) and the conditional stock moves of StockCounter
 * (goods/stock-counter.ts), which takes the good's lock around each.
 * A subclass names its stock field (-1 in it means unlimited) and what
 * "redeemable now" means for its goods.
 */
export abstract class GoodRepository<G extends Good> extends Repository<G> {
  protected constructor(
    model: Model<G>,
    private readonly stockField: keyof G & string,
  ) {
    super(model);
  }

  /** The filter a good must match to be redeemable now (stock aside), written as a plain object (see filter()). */
  protected abstract availableNow(now: Date): Record<string, unknown>;

  /** The same rule as availableNow, on a good read back. */
  abstract isAvailable(good: G, now: Date): boolean;

  /** Units left; -1 means unlimited. */
  stockOf(good: G): number {
    return good[this.stockField] as number;
  }

  // Generic over the document type, and the stock field is chosen at run
  // time (inventory, quantity), which mongoose's query types cannot
  // follow: queries are built as plain objects and typed here.
  private filter(query: Record<string, unknown>): FilterQuery<G> {
    return query as FilterQuery<G>;
  }

  private update(update: Record<string, unknown>): UpdateQuery<G> {
    return update as UpdateQuery<G>;
  }

  /** A new good under its id (derived from the request's operation key), or the one a first try of that request made. */
  async create(appId: string, good: Omit<G, 'appId'> & { _id: string }): Promise<G> {
    return (await this.insertOrGet(appId, good)).doc;
  }

  /** A live good of the app, or null (also for another app's id). */
  live(appId: string, id: string): Promise<G | null> {
    return this.collection.findOne(appId, this.filter({ _id: id, deletedAt: null }));
  }

  /** The app's live goods, newest first; `published` narrows to published or unpublished ones. */
  livePage(appId: string, page: PageQuery, published?: boolean): Promise<Page<G>> {
    const filter = this.filter({ deletedAt: null, ...(published !== undefined ? { published } : {}) });
    return this.collection.page(appId, filter, { createdAt: -1, _id: -1 }, page);
  }

  /** Sets fields of a live good: the good after it, or null when there is none. */
  setLive(appId: string, id: string, set: Partial<G>): Promise<G | null> {
    return this.collection.findOneAndUpdate(appId, this.filter({ _id: id, deletedAt: null }), this.update({ $set: set }));
  }

  /** Soft delete of a live good: false when there is none. */
  async softDelete(appId: string, id: string, now: Date): Promise<boolean> {
    const deleted = await this.collection.updateOne(appId, this.filter({ _id: id, deletedAt: null }), this.update({ $set: { deletedAt: now, updatedAt: now } }));
    return deleted > 0;
  }

  /** One unit for each of `holders` (none of them holding one yet) if the good is redeemable and has that many: all or none. */
  async takeUnits(appId: string, goodId: string, holders: string[], now: Date): Promise<boolean> {
    const taken = await this.collection.updateOne(
      appId,
      this.filter({ ...this.availableNow(now), _id: goodId, [this.stockField]: { $gte: holders.length }, stockHolds: { $nin: holders } }),
      this.update({ $inc: { [this.stockField]: -holders.length }, $push: { stockHolds: { $each: holders } }, $set: { stockMarked: true } }),
    );
    return taken === 1;
  }

  /** One unit for `holder` if the good is redeemable, in stock, and `holder` holds none yet. */
  async takeUnit(appId: string, goodId: string, holder: string, now: Date): Promise<boolean> {
    const taken = await this.collection.updateOne(
      appId,
      this.filter({ ...this.availableNow(now), _id: goodId, [this.stockField]: { $gt: 0 }, stockHolds: { $ne: holder } }),
      this.update({ $inc: { [this.stockField]: -1 }, $push: { stockHolds: holder }, $set: { stockMarked: true } }),
    );
    return taken === 1;
  }

  /** `holder`'s unit back into a counted stock, its hold dropped: false when it holds none or the good is unlimited now. */
  async restock(appId: string, goodId: string, holder: string): Promise<boolean> {
    const restocked = await this.collection.updateOne(
      appId,
      this.filter({ _id: goodId, stockHolds: holder, [this.stockField]: { $gte: 0 } }),
      this.update({ $inc: { [this.stockField]: 1 }, $pull: { stockHolds: holder } }),
    );
    return restocked > 0;
  }

  /** These holds are final: the units stay taken, the markers go, in one write. */
  async dropHolds(appId: string, goodId: string, holders: string[]): Promise<void> {
    await this.collection.updateOne(appId, this.filter({ _id: goodId }), this.update({ $pullAll: { stockHolds: holders } }));
  }

  /** The unit of a confirmed redemption back in stock, marked by `holder` so it happens once (unlimited goods have no count to give back to). */
  async giveBackUnit(appId: string, goodId: string, holder: string): Promise<void> {
    await this.collection.updateOne(
      appId,
      this.filter({ _id: goodId, [this.stockField]: { $gte: 0 }, stockReturns: { $ne: holder } }),
      this.update({ $inc: { [this.stockField]: 1 }, $push: { stockReturns: holder }, $set: { stockMarked: true } }),
    );
  }

  /** Drops one marker of `holder`, if there. */
  async dropMarker(appId: string, goodId: string, marker: keyof StockMarkers, holder: string): Promise<void> {
    await this.collection.updateOne(appId, this.filter({ _id: goodId, [marker]: holder }), this.update({ $pull: { [marker]: holder } }));
  }

  /** Goods of every app marked since their last sweep: the recovery sweep, a system job that then handles each good under its own appId. */
  markedAcrossApps(limit: number): Promise<G[]> {
    return this.acrossApps.find(this.filter({ stockMarked: true })).limit(limit).lean<G[]>().exec();
  }

  /** The sweep is done with a good: unmarked, unless a marker arrived meanwhile. */
  async unmarkIfClear(appId: string, goodId: string): Promise<void> {
    await this.collection.updateOne(
      appId,
      this.filter({ _id: goodId, stockHolds: { $size: 0 }, stockReturns: { $size: 0 } }),
      this.update({ $set: { stockMarked: false } }),
    );
  }
}
