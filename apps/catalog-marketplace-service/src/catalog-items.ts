import type { Connection, FilterQuery } from 'mongoose';
import { AppScoped, newId, type Page, type PageQuery } from '@ris/mongo';
import { Code, notFound, rpcError } from '@ris/rpc';
import { catalogItemModel, type CatalogItemDoc } from './catalog-item.model';
import { checkCost, checkStock, checkText } from './field-rules';
import { StockCounter } from './stock-counter';

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
const DESCRIPTION_MAX = 2000;

/** Catalog items of an app: CRUD with soft delete, and their stock. */
export class CatalogItems {
  readonly items: AppScoped<CatalogItemDoc>;
  readonly stock: StockCounter<CatalogItemDoc>;

  constructor(db: Connection) {
    const model = catalogItemModel(db);
    this.items = new AppScoped(model);
    this.stock = new StockCounter(model, 'inventory', {
      filter: () => ({ published: true, deletedAt: null }),
      check: (item) => item.published && item.deletedAt === null,
    });
  }

  async create(appId: string, input: CatalogItemInput): Promise<CatalogItemDoc> {
    const now = new Date();
    return this.items.create(appId, {
      _id: newId('itm'),
      name: checkText(input.name, 'name', NAME_MAX, true),
      description: checkText(input.description ?? '', 'description', DESCRIPTION_MAX, false),
      coinCost: checkCost(input.coinCost, 'coinCost'),
      tokenCost: checkCost(input.tokenCost ?? 0, 'tokenCost'),
      inventory: checkStock(input.inventory ?? -1, 'inventory'),
      published: input.published ?? false,
      deletedAt: null,
      stockHolds: [],
      stockReturns: [],
      stockMarked: false,
      createdAt: now,
      updatedAt: now,
    });
  }

  /** A live (not deleted) item; 404 otherwise, also for another app's id. */
  async get(appId: string, itemId: string): Promise<CatalogItemDoc> {
    const item = await this.items.findOne(appId, { _id: itemId, deletedAt: null });
    if (!item) throw notFound('Catalog item', { itemId });
    return item;
  }

  /** The item as a redemption needs it: 404 if unknown, 422 ITEM_UNAVAILABLE if deleted or unpublished. */
  async getRedeemable(appId: string, itemId: string): Promise<CatalogItemDoc> {
    const item = await this.items.findOne(appId, { _id: itemId });
    if (!item) throw notFound('Catalog item', { itemId });
    if (item.deletedAt !== null || !item.published) {
      throw rpcError(Code.FailedPrecondition, 'ITEM_UNAVAILABLE', `Catalog item ${itemId} is ${item.deletedAt ? 'deleted' : 'not published'}.`, {
        itemId,
      });
    }
    return item;
  }

  list(appId: string, page: PageQuery, published?: boolean): Promise<Page<CatalogItemDoc>> {
    const filter: FilterQuery<CatalogItemDoc> = { deletedAt: null };
    if (published !== undefined) filter.published = published;
    return this.items.page(appId, filter, { createdAt: -1, _id: -1 }, page);
  }

  async update(appId: string, itemId: string, patch: CatalogItemPatch): Promise<CatalogItemDoc> {
    const set: Partial<CatalogItemDoc> = { updatedAt: new Date() };
    if (patch.name !== undefined) set.name = checkText(patch.name, 'name', NAME_MAX, true);
    if (patch.description !== undefined) set.description = checkText(patch.description, 'description', DESCRIPTION_MAX, false);
    if (patch.coinCost !== undefined) set.coinCost = checkCost(patch.coinCost, 'coinCost');
    if (patch.tokenCost !== undefined) set.tokenCost = checkCost(patch.tokenCost, 'tokenCost');
    // An absolute count: redemptions in flight keep the units they hold.
    if (patch.inventory !== undefined) set.inventory = checkStock(patch.inventory, 'inventory');
    if (patch.published !== undefined) set.published = patch.published;
    const updated = await this.stock.exclusive(itemId, () => this.items.findOneAndUpdate(appId, { _id: itemId, deletedAt: null }, { $set: set }));
    if (!updated) throw notFound('Catalog item', { itemId });
    return updated;
  }

  /** Soft delete: gone from the API, kept for the redemptions that name it. */
  async delete(appId: string, itemId: string): Promise<void> {
    const now = new Date();
    const deleted = await this.stock.exclusive(itemId, () =>
      this.items.updateOne(appId, { _id: itemId, deletedAt: null }, { $set: { deletedAt: now, updatedAt: now } }),
    );
    if (deleted === 0) throw notFound('Catalog item', { itemId });
  }
}
