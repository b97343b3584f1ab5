import type { FilterQuery, UpdateQuery } from 'mongoose';
import type { AppScoped, Page, PageQuery } from '@ris/mongo';
import { notFound } from '@ris/rpc';
import type { StockCounter, StockMarkers } from './stock-counter';

/** What a good (catalog item or listing) carries for its owner's management. */
type OwnedGood = StockMarkers & {
  _id: string;
  appId: string;
  published: boolean;
  /** Soft delete: set once, and the good is gone from its owner's API but not from history. */
  deletedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

type NewGoodFields = Pick<OwnedGood, 'deletedAt' | 'stockHolds' | 'stockReturns' | 'stockMarked' | 'createdAt' | 'updatedAt'>;

/** The fields every good is created with: live, and no stock move in flight. */
export function newGoodFields(now: Date): NewGoodFields {
  return { deletedAt: null, stockHolds: [], stockReturns: [], stockMarked: false, createdAt: now, updatedAt: now };
}

/**
 * The goods of one kind as the app that owns them manages them: only live
 * (not deleted) ones are seen, deleting is soft, and every write runs
 * under the good's stock lock so it never interleaves with a stock move.
 */
export class OwnedGoods<G extends OwnedGood> {
  constructor(
    private readonly goods: AppScoped<G>,
    private readonly stock: StockCounter<G>,
    /** How a 404 names the good, e.g. 'Catalog item' and its id as 'itemId'. */
    private readonly naming: { noun: string; idField: string },
  ) {}

  private notFound(id: string) {
    return notFound(this.naming.noun, { [this.naming.idField]: id });
  }

  // Generic over the document type, so mongoose cannot check these filters: they are typed here.
  private live(id: string): FilterQuery<G> {
    return { _id: id, deletedAt: null } as FilterQuery<G>;
  }

  /** A live good of the app; 404 otherwise, also for another app's id. */
  async get(appId: string, id: string): Promise<G> {
    const good = await this.goods.findOne(appId, this.live(id));
    if (!good) throw this.notFound(id);
    return good;
  }

  /** The app's live goods, newest first; `published` narrows to published or unpublished ones. */
  list(appId: string, page: PageQuery, published?: boolean): Promise<Page<G>> {
    const filter = { deletedAt: null, ...(published !== undefined ? { published } : {}) } as FilterQuery<G>;
    return this.goods.page(appId, filter, { createdAt: -1, _id: -1 }, page);
  }

  /** Sets the (already checked) fields of a live good; 404 if there is none. */
  async update(appId: string, id: string, set: Partial<G>): Promise<G> {
    const updated = await this.stock.exclusive(id, () => this.goods.findOneAndUpdate(appId, this.live(id), { $set: set } as UpdateQuery<G>));
    if (!updated) throw this.notFound(id);
    return updated;
  }

  /** Soft delete: gone from the owner's API, kept for the redemptions that name it. */
  async delete(appId: string, id: string): Promise<void> {
    const now = new Date();
    const deleted = await this.stock.exclusive(id, () =>
      this.goods.updateOne(appId, this.live(id), { $set: { deletedAt: now, updatedAt: now } } as UpdateQuery<G>),
    );
    if (deleted === 0) throw this.notFound(id);
  }
}
