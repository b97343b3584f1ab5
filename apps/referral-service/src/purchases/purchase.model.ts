import { Schema, type Connection, type Model } from 'mongoose';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { SaleReversalEntry } from '../reversals/sale-reversal-entry';
import type { PurchaseRepository } from './purchase.repository';

/** ACTIVE, or REVERSED once a reversal took back the whole of it (the contract's Purchase.status). */
export type PurchaseStatusName = 'ACTIVE' | 'REVERSED';

/**
 * A later payment of a converted referee (a renewal, a repeat order) on a
 * recurring campaign (docs/product-decisions.md §4.17). Its _id is derived
 * from what makes it the same payment (purchase-id.ts), so a replay finds
 * it instead of making a second one. Stored before its rewards are asked
 * for; rewardsIssuedAt marks that they were, and counted.
 */
export interface PurchaseDoc {
  _id: string;
  appId: string;
  /** The level-1 record of the conversion it follows. */
  conversionId: string;
  campaignId: string;
  refereeId: string;
  /** The sale, in currency; more than 0. */
  amount: number;
  /** ISO 4217 code of amount and of the rewards: the campaign's. */
  currency: string;
  /** The caller's id of the payment (an invoice id); unique per conversion. */
  externalId: string | null;
  /** When the payment happened: the caller's, or when it was recorded. The recurring window is judged by it. */
  occurredAt: Date;
  createdAt: Date;
  /** What reversals took off it (0 until one does). */
  reversedAmount: number;
  /** The reversals applied to it, each once (the condition of claiming one); absent until one is. */
  reversalIds?: string[];
  /** Each applied reversal with what was reversed after it (the share left for its rewards). */
  reversalLog?: SaleReversalEntry[];
  status: PurchaseStatusName;
  /** Set once its rewards were asked for and counted. */
  rewardsIssuedAt: Date | null;
  /**
   * True until rewardsIssuedAt is set: what the recovery pass looks for. A
   * boolean, because an equality on it is what FerretDB answers from an
   * index (README, "Local infrastructure"), where a null would be a scan.
   */
  rewardsPending: boolean;
}

const purchaseSchema = new Schema<PurchaseDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    conversionId: { type: String, required: true },
    campaignId: { type: String, required: true },
    refereeId: { type: String, required: true },
    amount: { type: Number, required: true },
    currency: { type: String, required: true },
    externalId: { type: String, default: null },
    occurredAt: { type: Date, required: true },
    createdAt: { type: Date, required: true },
    reversedAmount: { type: Number, default: 0 },
    reversalIds: { type: [String], default: undefined },
    reversalLog: { type: [new Schema<SaleReversalEntry>({ id: String, after: Number }, { _id: false })], default: undefined },
    status: { type: String, default: 'ACTIVE' },
    rewardsIssuedAt: { type: Date, default: null },
    rewardsPending: { type: Boolean, default: true },
  },
  { collection: 'purchases', versionKey: false },
);
declareIndexes<QueryNames<PurchaseRepository>>(purchaseSchema, [
  {
    keys: { appId: 1, conversionId: 1, occurredAt: -1, _id: -1 },
    serves: ['page'],
    why: "a conversion's purchases, newest first (ties by id): the sort is the index order, so a page reads only its own entries",
  },
  {
    keys: { rewardsPending: 1, createdAt: 1 },
    serves: ['unissuedBefore'],
    why: 'the recovery pass (every app): purchases whose rewards a request did not finish, oldest first',
  },
]);

export const purchaseModel = (db: Connection): Model<PurchaseDoc> =>
  (db.models.Purchase as Model<PurchaseDoc> | undefined) ?? db.model<PurchaseDoc>('Purchase', purchaseSchema);
