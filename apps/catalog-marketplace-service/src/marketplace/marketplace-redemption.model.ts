import { Schema, type Connection, type Model } from 'mongoose';
import { carriesEvents } from '@ris/events';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import { sagaFields, sagaIndexes, type SagaRecord } from '../saga/saga-record';
import { discountSchema, type DiscountDoc } from './listing.model';
import type { MarketplaceRedemptionRepository } from './marketplace-redemption.repository';

/**
 * A user of one app (appId, who paid) redeemed a listing of a business
 * app (listingAppId, who honours the code): the basis of settlement
 * between the two.
 */
export interface MarketplaceRedemptionDoc extends SagaRecord {
  listingId: string;
  listingAppId: string;
  /** The listing's title and discount when redeemed. */
  listingTitle: string;
  discount: DiscountDoc;
  /** MKT-…; drawn when the record is made, so a failed attempt burns its code. */
  discountCode: string;
  /** The code is honoured until then. */
  expiresAt: Date;
}

const marketplaceRedemptionSchema = new Schema<MarketplaceRedemptionDoc>(
  {
    ...sagaFields,
    listingId: { type: String, required: true },
    listingAppId: { type: String, required: true },
    listingTitle: { type: String, required: true },
    discount: { type: discountSchema, required: true },
    discountCode: { type: String, required: true },
    expiresAt: { type: Date, required: true },
  },
  { collection: 'marketplace_redemptions', versionKey: false },
);
declareIndexes<QueryNames<MarketplaceRedemptionRepository>>(marketplaceRedemptionSchema, [
  {
    keys: { discountCode: 1 },
    options: { unique: true },
    serves: ['issuedCode', 'insert'],
    why: 'a code is a bearer token and means one redemption across every app (an insert drawing a taken one draws again); verify finds the redemption by it',
  },
  { keys: { appId: 1, state: 1, createdAt: -1 }, serves: ['page', 'settlementRows'], why: "the redeeming app's redemptions (list, settlements as redeemer: confirmed ones)" },
  { keys: { appId: 1, userId: 1, createdAt: -1 }, serves: ['page'], why: '...of one of its users' },
  { keys: { listingAppId: 1, state: 1, createdAt: -1 }, serves: ['page', 'settlementRows'], why: "the listing owner's redemptions (list, settlements as provider)" },
  { keys: { listingAppId: 1, listingId: 1, state: 1, createdAt: -1 }, serves: ['page', 'settlementRows'], why: '...of one listing' },
  ...sagaIndexes,
]);
// A step's events are stored with the move that closes it, until published.
carriesEvents(marketplaceRedemptionSchema);

export const marketplaceRedemptionModel = (db: Connection): Model<MarketplaceRedemptionDoc> =>
  (db.models.MarketplaceRedemption as Model<MarketplaceRedemptionDoc> | undefined) ??
  db.model<MarketplaceRedemptionDoc>('MarketplaceRedemption', marketplaceRedemptionSchema);
