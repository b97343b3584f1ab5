import { notFound, refused } from '@ris/domain-errors';
import { idFromOperation } from '@ris/mongo';
import { checkStock, checkText, checkedPriceTerms, newPriceTerms } from '../goods/field-rules';
import { newGoodFields, OwnedGoods } from '../goods/owned-goods';
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

/** Catalog items of an app: CRUD with soft delete (get, list and delete: OwnedGoods), and their stock. */
export class CatalogItems extends OwnedGoods<CatalogItemDoc> {
  constructor(private readonly items: CatalogItemRepository) {
    super(items, { noun: 'Catalog item', idField: 'itemId' });
  }

  /** With an operation key, a retry of the request answers what its first try made. */
  async create(appId: string, input: CatalogItemInput, operationKey = ''): Promise<CatalogItemDoc> {
    const now = new Date();
    return this.items.create(appId, {
      _id: idFromOperation('itm', operationKey),
      name: checkText(input.name, 'name', NAME_MAX, true),
      ...newPriceTerms(input),
      inventory: checkStock(input.inventory ?? -1, 'inventory'),
      published: input.published ?? false,
      ...newGoodFields(now),
    });
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

  async update(appId: string, itemId: string, patch: CatalogItemPatch): Promise<CatalogItemDoc> {
    const set: Partial<CatalogItemDoc> = { updatedAt: new Date() };
    if (patch.name !== undefined) set.name = checkText(patch.name, 'name', NAME_MAX, true);
    Object.assign(set, checkedPriceTerms(patch));
    // An absolute count: redemptions in flight keep the units they hold.
    if (patch.inventory !== undefined) set.inventory = checkStock(patch.inventory, 'inventory');
    if (patch.published !== undefined) set.published = patch.published;
    return this.setLive(appId, itemId, set);
  }
}
