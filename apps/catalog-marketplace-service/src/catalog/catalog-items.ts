import { notFound, refused } from '@ris/domain-errors';
import { CoalescedReads, idFromOperation, type Page, type PageQuery } from '@ris/mongo';
import { DESCRIPTION_MAX, checkCost, checkStock, checkText, checkedPriceTerms } from '../goods/field-rules';
import { newGoodFields, OwnedGoods } from '../goods/owned-goods';
import { StockCounter } from '../goods/stock-counter';
import type { CatalogItemDoc } from './catalog-item.model';
import type { CatalogItemRepository } from './catalog-item.repository';

export interface CatalogItemInput {
  name: string;
  description?: string;
  coinCost: number;
  tokenCost?: number;
  inventory?: number;
  published?: boolean;
}

export type CatalogItemPatch = Partial<CatalogItemInput>;

const NAME_MAX = 200;

/** Catalog items of an app: CRUD with soft delete, and their stock. */
export class CatalogItems {
  readonly stock: StockCounter<CatalogItemDoc>;
  private readonly owned: OwnedGoods<CatalogItemDoc>;
  /** Every redemption of an item reads it first: the reads that arrive together share one. */
  private readonly redeemableReads = new CoalescedReads<CatalogItemDoc | null>();

  constructor(private readonly items: CatalogItemRepository) {
    this.stock = new StockCounter(items);
    this.owned = new OwnedGoods(items, this.stock, { noun: 'Catalog item', idField: 'itemId' });
  }

  /** With an operation key, a retry of the request answers what its first try made. */
  async create(appId: string, input: CatalogItemInput, operationKey = ''): Promise<CatalogItemDoc> {
    const now = new Date();
    return this.items.create(appId, {
      _id: idFromOperation('itm', operationKey),
      name: checkText(input.name, 'name', NAME_MAX, true),
      description: checkText(input.description ?? '', 'description', DESCRIPTION_MAX, false),
      coinCost: checkCost(input.coinCost, 'coinCost'),
      tokenCost: checkCost(input.tokenCost ?? 0, 'tokenCost'),
      inventory: checkStock(input.inventory ?? -1, 'inventory'),
      published: input.published ?? false,
      ...newGoodFields(now),
    });
  }

  /** A live (not deleted) item; 404 otherwise, also for another app's id. */
  get(appId: string, itemId: string): Promise<CatalogItemDoc> {
    return this.owned.get(appId, itemId);
  }

  /** The item as a redemption needs it: 404 if unknown, 422 ITEM_UNAVAILABLE if deleted or unpublished. */
  async getRedeemable(appId: string, itemId: string): Promise<CatalogItemDoc> {
    const item = await this.redeemableReads.read(`${appId}\u0000${itemId}`, () => this.items.findById(appId, itemId));
    if (!item) throw notFound('Catalog item', { itemId });
    if (item.deletedAt !== null || !item.published) {
      throw refused('ITEM_UNAVAILABLE', `Catalog item ${itemId} is ${item.deletedAt ? 'deleted' : 'not published'}.`, { itemId });
    }
    return item;
  }

  list(appId: string, page: PageQuery, published?: boolean): Promise<Page<CatalogItemDoc>> {
    return this.owned.list(appId, page, published);
  }

  async update(appId: string, itemId: string, patch: CatalogItemPatch): Promise<CatalogItemDoc> {
    const set: Partial<CatalogItemDoc> = { updatedAt: new Date() };
    if (patch.name !== undefined) set.name = checkText(patch.name, 'name', NAME_MAX, true);
    Object.assign(set, checkedPriceTerms(patch));
    // An absolute count: redemptions in flight keep the units they hold.
    if (patch.inventory !== undefined) set.inventory = checkStock(patch.inventory, 'inventory');
    if (patch.published !== undefined) set.published = patch.published;
    return this.owned.update(appId, itemId, set);
  }

  /** Soft delete: gone from the API, kept for the redemptions that name it. */
  delete(appId: string, itemId: string): Promise<void> {
    return this.owned.delete(appId, itemId);
  }
}
