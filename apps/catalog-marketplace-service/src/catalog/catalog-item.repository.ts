import type { Connection } from 'mongoose';
import { GoodRepository } from '../goods/good.repository';
import { catalogItemModel, type CatalogItemDoc } from './catalog-item.model';

/** The catalog's items: their queries are those every good has (GoodRepository), with "redeemable" meaning published and live. */
export class CatalogItemRepository extends GoodRepository<CatalogItemDoc> {
  constructor(db: Connection) {
    super(catalogItemModel(db), 'inventory');
  }

  /** Redeemable now: published and not deleted (stock is the counter's business). */
  protected availableNow(): Record<string, unknown> {
    return { published: true, deletedAt: null };
  }

  isAvailable(item: CatalogItemDoc): boolean {
    return item.published && item.deletedAt === null;
  }
}
