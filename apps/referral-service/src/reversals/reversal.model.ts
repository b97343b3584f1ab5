import { Schema, type Connection, type Model } from 'mongoose';
import { carriesEvents, type OutboxFields } from '@ris/events';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { ReversalRepository } from './reversal.repository';

/** REFUND, CHARGEBACK, CANCELLATION or OTHER: the contract's ReversalReason. */
export type ReversalReasonName = 'REFUND' | 'CHARGEBACK' | 'CANCELLATION' | 'OTHER';

/** What the reversal did to one reward of the sale (the reward service's answer, kept to answer a retry). */
export interface ReversedRewardDoc {
  rewardId: string;
  userId: string;
  side: 'REFERRER' | 'REFEREE';
  level: number;
  effect: string;
  from: number;
  to: number;
  clawback: number;
}

/**
 * A refund, chargeback or cancellation of a conversion's sale or of one
 * purchase (product decisions §3.10), in full or in part. Written first
 * (PENDING: the intent), then the sale is claimed (its reversedAmount, a
 * conditional update that decides concurrent reversals), then the rewards
 * are reversed and the figures counted, then it is marked APPLIED with its
 * events. Each step is safe to repeat; the recovery pass finishes a PENDING
 * one a dead process left, or drops it when its claim never happened and
 * no longer fits.
 */
export interface ReversalDoc extends OutboxFields {
  _id: string;
  appId: string;
  /** The level-1 record of the conversion. */
  conversionId: string;
  /** The purchase reversed; null: the conversion's own sale. */
  purchaseId: string | null;
  campaignId: string;
  referralId: string;
  referrerId: string;
  refereeId: string;
  reason: ReversalReasonName;
  /** The part of the sale reversed (what was left of it, for a full one; 0 for a sale without an amount). */
  amount: number;
  /** The sale is reversed whole by it (what was left of it). */
  full: boolean;
  note: string | null;
  currency: string;
  /** The sale's amount (null: a conversion recorded without one). */
  saleAmount: number | null;
  /** The share of the sale standing after it (0 to 1), set by its claim: what its share-of-sale rewards keep. */
  remainingShare: number | null;
  status: 'PENDING' | 'APPLIED';
  rewards: ReversedRewardDoc[];
  /** Reward value taken off rewards not paid out (reduced or cancelled). */
  rewardAmountReversed: number;
  /** Reward value owed back by referrers already paid. */
  clawbackAmount: number;
  createdAt: Date;
  appliedAt: Date | null;
}

const reversedRewardSchema = new Schema<ReversedRewardDoc>(
  { rewardId: String, userId: String, side: String, level: Number, effect: String, from: Number, to: Number, clawback: Number },
  { _id: false },
);

const reversalSchema = new Schema<ReversalDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    conversionId: { type: String, required: true },
    purchaseId: { type: String, default: null },
    campaignId: { type: String, required: true },
    referralId: { type: String, required: true },
    referrerId: { type: String, required: true },
    refereeId: { type: String, required: true },
    reason: { type: String, required: true },
    amount: { type: Number, required: true },
    full: { type: Boolean, required: true },
    note: { type: String, default: null },
    currency: { type: String, required: true },
    saleAmount: { type: Number, default: null },
    remainingShare: { type: Number, default: null },
    status: { type: String, required: true },
    rewards: { type: [reversedRewardSchema], default: [] },
    rewardAmountReversed: { type: Number, default: 0 },
    clawbackAmount: { type: Number, default: 0 },
    createdAt: { type: Date, required: true },
    appliedAt: { type: Date, default: null },
  },
  { collection: 'reversals', versionKey: false },
);
declareIndexes<QueryNames<ReversalRepository>>(reversalSchema, [
  // GET /conversions/{conversionId}/reversals, newest first (ties by id); the earlier full reversal of a sale.
  { keys: { appId: 1, conversionId: 1, createdAt: -1, _id: -1 }, serves: ['page', 'fullOf'] },
  { keys: { status: 1, createdAt: 1 }, serves: ['pendingBefore'], why: 'the recovery pass (every app): reversals a request did not finish, oldest first' },
]);

// conversion.reversed waits on the reversal until published.
carriesEvents(reversalSchema);

export const reversalModel = (db: Connection): Model<ReversalDoc> =>
  (db.models.Reversal as Model<ReversalDoc> | undefined) ?? db.model<ReversalDoc>('Reversal', reversalSchema);
