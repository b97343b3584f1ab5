import { Schema, type Connection, type Model } from 'mongoose';
import type { EnumName, FulfillmentType, RewardSide, RewardStatus } from '@ris/contracts';
import { declareIndexes, retireIndexes, type QueryNames } from '@ris/mongo';
import type { RewardRepository } from './reward.repository';

/** PENDING, APPROVED, PAID or CANCELLED: the names of the contract's RewardStatus. */
export type RewardStatusName = EnumName<typeof RewardStatus>;
/** REFERRER or REFEREE. */
export type RewardSideName = EnumName<typeof RewardSide>;
/** DISCOUNT_CODE, COUPON_CODE, MANUAL…: the contract's FulfillmentType. */
export type FulfillmentTypeName = EnumName<typeof FulfillmentType>;

/** What one reversal did to a reward (see ReverseRewards). */
export interface RewardReversalEntry {
  reversalId: string;
  effect: 'REDUCED' | 'CANCELLED' | 'CLAWBACK' | 'UNCHANGED';
  from: number;
  to: number;
  /** The part owed back (CLAWBACK). */
  clawback: number;
  /** The reward's status when it was applied (whose totals a reduction moves). */
  status: RewardStatusName;
  at: Date;
}

export interface RewardDoc {
  _id: string;
  appId: string;
  userId: string;
  campaignId: string;
  referralId: string;
  /** The level-1 conversion record this reward was earned by. */
  conversionId: string;
  /**
   * The later purchase of that conversion that earned it; null for the
   * conversion's own reward (absent on rewards stored before purchases: null).
   */
  purchaseId?: string | null;
  side: RewardSideName;
  level: number;
  /** What it is worth now: earnedAmount less what reversals reduced it by (a paid reward keeps it; what is owed back is a clawback). */
  amount: number;
  /** What it was created with (absent on rewards stored before reversals: amount). */
  earnedAmount?: number;
  /** A share of the sale (a percentage rule): a partial reversal reduces it in proportion. */
  shareOfSale?: boolean;
  /** Value reversals took back: reductions, a cancellation, clawbacks (absent: 0). */
  reversedAmount?: number;
  /** The reason of the last reversal that changed it (REFUND, CHARGEBACK…); null otherwise. */
  reversalReason?: string | null;
  /** Each reversal that looked at it, once: what it did (the reward's own record of it, written with the change). */
  reversals?: RewardReversalEntry[];
  /** The ids of reversals, the condition of writing one once (recordReversal). */
  reversalIds?: string[];
  /** A PAID reward's value owed back by reversals (its clawbacks summed; absent: 0). */
  clawedBack?: number;
  /** The reversal that cancelled it, when one did (its code then validates as REVERSED). */
  cancelledByReversal?: string | null;
  /**
   * The campaign's holding period ends: a PENDING reward becomes APPROVED by
   * itself then (HoldRelease), unless a review holds it. null: never held so.
   */
  availableAt?: Date | null;
  /** Held PENDING by its conversion's open flag or deferred fraud check (ApproveConversionRewards releases it). */
  reviewHold?: boolean;
  /** ISO 4217 code of amount (its campaign's); absent on rewards stored before currencies: USD. */
  currency?: string;
  /**
   * A CASH reward's payout while it is in a PENDING or PAID one (null when
   * in none: payable once APPROVED). Set by the payout's claim, a
   * conditional write on the reward itself: the one place that decides,
   * against other payouts and against reversals (which claw back instead
   * of reducing a reward in a payout).
   */
  payoutId?: string | null;
  /** When its payout was marked paid (a CASH reward). */
  paidAt?: Date | null;
  fulfillmentType: FulfillmentTypeName;
  status: RewardStatusName;
  /** Absent until claimed; reward_codes holds the code and decides who issued it. */
  discountCode?: string;
  expiresAt: Date | null;
  claimedAt: Date | null;
  redeemedAt: Date | null;
  approvedAt: Date | null;
  cancelledAt: Date | null;
  /** Why an operator cancelled it (POST /rewards/{rewardId}/cancel); null otherwise. */
  cancellationNote?: string | null;
  /** How long a claimed code stays valid (the campaign's setting when the reward was made). */
  codeValidityDays: number;
  createdAt: Date;
  updatedAt: Date;
}

const rewardSchema = new Schema<RewardDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    userId: { type: String, required: true },
    campaignId: { type: String, required: true },
    referralId: { type: String, required: true },
    conversionId: { type: String, required: true },
    purchaseId: { type: String, default: null },
    side: { type: String, required: true },
    level: { type: Number, required: true },
    amount: { type: Number, required: true },
    earnedAmount: { type: Number },
    shareOfSale: { type: Boolean, default: false },
    reversedAmount: { type: Number, default: 0 },
    reversalReason: { type: String, default: null },
    reversals: {
      type: [new Schema<RewardReversalEntry>({ reversalId: String, effect: String, from: Number, to: Number, clawback: Number, status: String, at: Date }, { _id: false })],
      default: undefined,
    },
    reversalIds: { type: [String], default: undefined },
    clawedBack: { type: Number, default: 0 },
    cancelledByReversal: { type: String, default: null },
    availableAt: { type: Date, default: null },
    reviewHold: { type: Boolean, default: false },
    currency: { type: String },
    payoutId: { type: String, default: null },
    paidAt: { type: Date, default: null },
    fulfillmentType: { type: String, required: true },
    status: { type: String, required: true },
    discountCode: { type: String },
    expiresAt: { type: Date, default: null },
    claimedAt: { type: Date, default: null },
    redeemedAt: { type: Date, default: null },
    approvedAt: { type: Date, default: null },
    cancelledAt: { type: Date, default: null },
    cancellationNote: { type: String, default: null },
    codeValidityDays: { type: Number, required: true },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'rewards', versionKey: false },
);
declareIndexes<QueryNames<RewardRepository>>(rewardSchema, [
  {
    keys: { appId: 1, conversionId: 1, purchaseId: 1, side: 1, level: 1 },
    options: { unique: true },
    serves: ['earnedFor', 'insertEarned', 'ofSale', 'movableOf', 'releaseReview'],
    why: "CreateReward is idempotent by conversion, purchase, side and level (a retried conversion or purchase finds its reward); the prefixes: a conversion's rewards, one sale's",
  },
  {
    keys: { status: 1, reviewHold: 1, availableAt: 1 },
    serves: ['dueForRelease'],
    why: 'the holding-period pass (every app): PENDING rewards no review holds whose availableAt has passed, soonest first',
  },
  {
    keys: { appId: 1, fulfillmentType: 1, status: 1, payoutId: 1, userId: 1 },
    serves: ['payable'],
    why: "POST /payouts and GET /payouts/due: an app's APPROVED CASH rewards in no payout (of one referrer)",
  },
  // The sort is the index order, so a page (or an export's cursor) reads only its own entries.
  { keys: { appId: 1, createdAt: -1, _id: -1 }, serves: ['list', 'all'], why: 'GET /rewards, newest first (ties by id)' },
  { keys: { appId: 1, userId: 1, createdAt: -1, _id: -1 }, serves: ['list', 'all', 'claimForPayout', 'releaseFromPayout'], why: "GET /rewards?userId= and GET /users/{userId}/rewards; a payout's claims, by its referrer" },
  { keys: { appId: 1, status: 1, createdAt: -1, _id: -1 }, serves: ['list', 'all'], why: 'GET /rewards?status=' },
  { keys: { appId: 1, fulfillmentType: 1, createdAt: -1, _id: -1 }, serves: ['list', 'all'], why: 'GET /rewards?fulfillmentType=' },
]);

// Before purchases a reward was unique by conversion, side and level: a purchase's reward would collide with it.
retireIndexes(rewardSchema, [{ keys: { appId: 1, conversionId: 1, side: 1, level: 1 }, why: 'replaced by the unique index with purchaseId' }]);

export const rewardModel = (db: Connection): Model<RewardDoc> =>
  (db.models.Reward as Model<RewardDoc> | undefined) ?? db.model<RewardDoc>('Reward', rewardSchema);
