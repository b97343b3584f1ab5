import { Schema, type Connection, type Model } from 'mongoose';
import { carriesEvents } from '@ris/events';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import { sagaFields, sagaIndexes, type SagaRecord } from '../saga/saga-record';
import type { CatalogRedemptionRepository } from './catalog-redemption.repository';

/** A catalog redemption: one unit of an item bought by a user of the item's app. */
export interface RedemptionDoc extends SagaRecord {
  itemId: string;
  /** The item's name when it was redeemed (costs are kept in coinCost/tokenCost). */
  itemName: string;
  fulfilledAt: Date | null;
  cancelledAt: Date | null;
}

const redemptionSchema = new Schema<RedemptionDoc>(
  {
    ...sagaFields,
    itemId: { type: String, required: true },
    itemName: { type: String, required: true },
    fulfilledAt: { type: Date, default: null },
    cancelledAt: { type: Date, default: null },
  },
  { collection: 'redemptions', versionKey: false },
);
declareIndexes<QueryNames<CatalogRedemptionRepository>>(redemptionSchema, [
  { keys: { appId: 1, state: 1, createdAt: -1 }, serves: ['page'], why: 'GET /incentives/redemptions, newest first (optionally by status: the state filter)' },
  { keys: { appId: 1, createdAt: -1 }, serves: ['page'] },
  { keys: { appId: 1, userId: 1, createdAt: -1 }, serves: ['page'], why: 'GET /incentives/redemptions?userId=' },
  { keys: { appId: 1, itemId: 1, createdAt: -1 }, serves: ['page'], why: 'GET /incentives/redemptions?itemId=' },
  ...sagaIndexes,
]);
// A step's events are stored with the move that closes it, until published.
carriesEvents(redemptionSchema);

export const redemptionModel = (db: Connection): Model<RedemptionDoc> =>
  (db.models.Redemption as Model<RedemptionDoc> | undefined) ?? db.model<RedemptionDoc>('Redemption', redemptionSchema);
