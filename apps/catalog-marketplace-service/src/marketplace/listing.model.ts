import { Schema, type Connection, type Model } from 'mongoose';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import { stockMarkerFields, type StockMarkers } from '../goods/stock-markers';
import type { ListingRepository } from './listing.repository';

export type DiscountTypeName = 'PERCENT' | 'FIXED';

export interface DiscountDoc {
  type: DiscountTypeName;
  value: number;
}

/** A marketplace listing: an offer a business app makes to the users of every app. */
export interface ListingDoc extends StockMarkers {
  _id: string;
  /** The business app that offers it. */
  appId: string;
  title: string;
  description: string;
  coinCost: number;
  tokenCost: number;
  /** Codes left; -1 means unlimited. */
  quantity: number;
  discount: DiscountDoc;
  /** The offer ends then; null: never. */
  expiresAt: Date | null;
  published: boolean;
  /** How long a code issued for it stays valid. */
  codeValidityDays: number;
  deletedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export const discountSchema = new Schema<DiscountDoc>(
  { type: { type: String, required: true }, value: { type: Number, required: true } },
  { _id: false },
);

const listingSchema = new Schema<ListingDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    title: { type: String, required: true },
    description: { type: String, default: '' },
    coinCost: { type: Number, required: true },
    tokenCost: { type: Number, required: true },
    quantity: { type: Number, required: true },
    discount: { type: discountSchema, required: true },
    expiresAt: { type: Date, default: null },
    published: { type: Boolean, required: true },
    codeValidityDays: { type: Number, required: true },
    deletedAt: { type: Date, default: null },
    ...stockMarkerFields,
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'listings', versionKey: false },
);
declareIndexes<QueryNames<ListingRepository>>(listingSchema, [
  { keys: { appId: 1, deletedAt: 1, createdAt: -1 }, serves: ['livePage'], why: "GET /incentives/marketplace/listings: the owner's live listings, newest first" },
  { keys: { appId: 1, deletedAt: 1, published: 1, createdAt: -1 }, serves: ['livePage'], why: '...?published=' },
  {
    keys: { published: 1, deletedAt: 1, createdAt: -1 },
    serves: ['publicPage'],
    why: "GET /incentives/marketplace/public/listings (every app's, the one deliberately cross-tenant read) and the affordable listings of verify",
  },
  { keys: { stockMarked: 1 }, serves: ['markedAcrossApps'], why: 'the recovery sweep: listings marked by stock moves since their last sweep' },
]);

export const listingModel = (db: Connection): Model<ListingDoc> =>
  (db.models.Listing as Model<ListingDoc> | undefined) ?? db.model<ListingDoc>('Listing', listingSchema);
