import { notFound } from '@ris/domain-errors';
import { CoalescedReads, type Page, type PageQuery } from '@ris/mongo';
import type { Good, GoodRepository } from './good.repository';
import { StockCounter } from './stock-counter';

type NewGoodFields = Pick<Good, 'deletedAt' | 'stockHolds' | 'stockReturns' | 'stockMarked' | 'createdAt' | 'updatedAt'>;

/** The fields every good is created with: live, and no stock move in flight. */
export function newGoodFields(now: Date): NewGoodFields {
  return { deletedAt: null, stockHolds: [], stockReturns: [], stockMarked: false, createdAt: now, updatedAt: now };
}

/**
 * The goods of one kind (catalog items, listings: the subclasses add
 * their fields' rules) as the app that owns them manages them: only live
 * (not deleted) ones are seen, deleting is soft, and every write runs
 * under the good's stock lock so it never interleaves with a stock move
 * (the redemptions' moves go through `stock`).
 */
export abstract class OwnedGoods<G extends Good> {
  readonly stock: StockCounter<G>;
  /** Every redemption of a good reads it first: the reads that arrive together share one. */
  protected readonly redeemableReads = new CoalescedReads<G | null>();

  protected constructor(
    private readonly goods: GoodRepository<G>,
    /** How a 404 names the good, e.g. 'Catalog item' and its id as 'itemId'. */
    private readonly naming: { noun: string; idField: string },
  ) {
    this.stock = new StockCounter(goods);
  }

  protected notFound(id: string) {
    return notFound(this.naming.noun, { [this.naming.idField]: id });
  }

  /** A live good of the app; 404 otherwise, also for another app's id. */
  async get(appId: string, id: string): Promise<G> {
    const good = await this.goods.live(appId, id);
    if (!good) throw this.notFound(id);
    return good;
  }

  /** The app's live goods, newest first; `published` narrows to published or unpublished ones. */
  list(appId: string, page: PageQuery, published?: boolean): Promise<Page<G>> {
    return this.goods.livePage(appId, page, published);
  }

  /** Sets the (already checked) fields of a live good; 404 if there is none. */
  protected async setLive(appId: string, id: string, set: Partial<G>): Promise<G> {
    const updated = await this.stock.exclusive(id, () => this.goods.setLive(appId, id, set));
    if (!updated) throw this.notFound(id);
    return updated;
  }

  /** Soft delete: gone from the owner's API, kept for the redemptions that name it. */
  async delete(appId: string, id: string): Promise<void> {
    const deleted = await this.stock.exclusive(id, () => this.goods.softDelete(appId, id, new Date()));
    if (!deleted) throw this.notFound(id);
  }
}
