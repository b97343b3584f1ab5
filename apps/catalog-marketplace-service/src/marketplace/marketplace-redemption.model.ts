import { Schema, type Connection, type Model } from 'mongoose';
import { carriesEvents } from '@ris/events';
import { discountSchema, type DiscountDoc } from './listing.model';
import { addSagaIndexes, sagaFields, type SagaRecord } from '../saga/saga-record';

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
// A code is a bearer token and means one redemption across every app;
// verify finds the redemption by it.
marketplaceRedemptionSchema.index({ discountCode: 1 }, { unique: true });
// The redeeming app's redemptions (list, settlements as redeemer: confirmed ones).
marketplaceRedemptionSchema.index({ appId: 1, state: 1, createdAt: -1 });
// ...of one of its users.
marketplaceRedemptionSchema.index({ appId: 1, userId: 1, createdAt: -1 });
// The listing owner's redemptions (list, settlements as provider).
marketplaceRedemptionSchema.index({ listingAppId: 1, state: 1, createdAt: -1 });
// ...of one listing.
marketplaceRedemptionSchema.index({ listingAppId: 1, listingId: 1, state: 1, createdAt: -1 });
addSagaIndexes(marketplaceRedemptionSchema);
// A step's events are stored with the move that closes it, until published.
carriesEvents(marketplaceRedemptionSchema);

export const marketplaceRedemptionModel = (db: Connection): Model<MarketplaceRedemptionDoc> =>
  (db.models.MarketplaceRedemption as Model<MarketplaceRedemptionDoc> | undefined) ??
  db.model<MarketplaceRedemptionDoc>('MarketplaceRedemption', marketplaceRedemptionSchema);
