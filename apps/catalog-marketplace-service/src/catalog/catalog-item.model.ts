import { Schema, type Connection, type Model } from 'mongoose';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import { stockMarkerFields, type StockMarkers } from '../goods/stock-markers';
import type { CatalogItemRepository } from './catalog-item.repository';

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
declareIndexes<QueryNames<CatalogItemRepository>>(catalogItemSchema, [
  { keys: { appId: 1, deletedAt: 1, createdAt: -1 }, serves: ['livePage'], why: "GET /incentives/catalog: an app's live items, newest first" },
  { keys: { appId: 1, deletedAt: 1, published: 1, createdAt: -1 }, serves: ['livePage'], why: 'GET /incentives/catalog?published=' },
  { keys: { stockMarked: 1 }, serves: ['markedAcrossApps'], why: 'the recovery sweep: items marked by stock moves since their last sweep' },
]);

export const catalogItemModel = (db: Connection): Model<CatalogItemDoc> =>
  (db.models.CatalogItem as Model<CatalogItemDoc> | undefined) ?? db.model<CatalogItemDoc>('CatalogItem', catalogItemSchema);
