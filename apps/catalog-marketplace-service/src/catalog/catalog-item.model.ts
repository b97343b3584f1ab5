import { Schema, type Connection, type Model } from 'mongoose';
import { stockMarkerFields, type StockMarkers } from '../goods/stock-counter';

export interface CatalogItemDoc extends StockMarkers {
  _id: string;
  appId: string;
  name: string;
  description: string;
  coinCost: number;
  tokenCost: number;
  /** Units left; -1 means unlimited. */
  inventory: number;
  published: boolean;
  /** Soft delete: set once, and the item is gone from the API but not from history. */
  deletedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const catalogItemSchema = new Schema<CatalogItemDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    name: { type: String, required: true },
    description: { type: String, default: '' },
    coinCost: { type: Number, required: true },
    tokenCost: { type: Number, required: true },
    inventory: { type: Number, required: true },
    published: { type: Boolean, required: true },
    deletedAt: { type: Date, default: null },
    ...stockMarkerFields,
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'catalog_items', versionKey: false },
);
// GET /incentives/catalog: an app's live items, newest first.
catalogItemSchema.index({ appId: 1, deletedAt: 1, createdAt: -1 });
// GET /incentives/catalog?published=.
catalogItemSchema.index({ appId: 1, deletedAt: 1, published: 1, createdAt: -1 });
// The recovery sweep: items marked by stock moves since their last sweep.
catalogItemSchema.index({ stockMarked: 1 });

export const catalogItemModel = (db: Connection): Model<CatalogItemDoc> =>
  (db.models.CatalogItem as Model<CatalogItemDoc> | undefined) ?? db.model<CatalogItemDoc>('CatalogItem', catalogItemSchema);
