import { Schema, type Connection, type Model } from 'mongoose';
import { carriesEvents, type OutboxFields } from '@ris/events';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { RewardSideName } from '../rewards/reward.model';
import type { RewardReversalRepository } from './reward-reversal.repository';

/** What a reversal did to one reward (null while it is being applied). */
export type ReversalEffect = 'REDUCED' | 'CANCELLED' | 'CLAWBACK' | 'UNCHANGED';

/**
 * One reversal of a sale applied to one reward of it: written first (the
 * intent, with the value the reward may keep), then applied to the reward,
 * then marked done with what it did and its event. _id is
 * `${reversalId}:${rewardId}`: a reversal changes a reward at most once,
 * whoever applies it (the request, its retry, the recovery pass). A done
 * CLAWBACK is what a referrer owes back (ListClawbacks).
 */
export interface RewardReversalDoc extends OutboxFields {
  _id: string;
  appId: string;
  reversalId: string;
  rewardId: string;
  userId: string;
  campaignId: string;
  conversionId: string;
  purchaseId: string | null;
  side: RewardSideName;
  level: number;
  currency: string;
  /** REFUND, CHARGEBACK, CANCELLATION or OTHER. */
  reason: string;
  note: string | null;
  /** The value the reward may keep after this reversal (0: all of it taken back); null: left as it is (a fixed reward, partial reversal). */
  keep: number | null;
  effect: ReversalEffect | null;
  /** The reward's value before and after (what it is worth to its owner: a paid one less what is owed back). */
  from: number;
  to: number;
  /** The part owed back (CLAWBACK). */
  clawback: number;
  createdAt: Date;
  done: boolean;
  /** A clawback's payout (PENDING or PAID) while one nets it; null when in none (owed, to be netted). */
  payoutId?: string | null;
  /** When the payout that netted it was paid: owed no more. */
  settledAt?: Date | null;
}

const rewardReversalSchema = new Schema<RewardReversalDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    reversalId: { type: String, required: true },
    rewardId: { type: String, required: true },
    userId: { type: String, required: true },
    campaignId: { type: String, required: true },
    conversionId: { type: String, required: true },
    purchaseId: { type: String, default: null },
    side: { type: String, required: true },
    level: { type: Number, required: true },
    currency: { type: String, required: true },
    reason: { type: String, required: true },
    note: { type: String, default: null },
    keep: { type: Number, default: null },
    effect: { type: String, default: null },
    from: { type: Number, default: 0 },
    to: { type: Number, default: 0 },
    clawback: { type: Number, default: 0 },
    createdAt: { type: Date, required: true },
    done: { type: Boolean, required: true },
    payoutId: { type: String, default: null },
    settledAt: { type: Date, default: null },
  },
  { collection: 'reward_reversals', versionKey: false },
);
declareIndexes<QueryNames<RewardReversalRepository>>(rewardReversalSchema, [
  { keys: { done: 1, createdAt: 1 }, serves: ['open'], why: 'the recovery pass (every app): reversals a dead process left half applied, oldest first' },
  // GET /rewards/clawbacks, newest first (ties by id), of the app or of one referrer; and their sums.
  { keys: { appId: 1, effect: 1, createdAt: -1, _id: -1 }, serves: ['clawbacks', 'clawbackTotals'] },
  { keys: { appId: 1, userId: 1, effect: 1, createdAt: -1, _id: -1 }, serves: ['clawbacks', 'clawbackTotals', 'claimForPayout', 'releaseFromPayout', 'settle'] },
  { keys: { appId: 1, effect: 1, payoutId: 1, userId: 1 }, serves: ['owed'], why: 'POST /payouts: the clawbacks in no payout yet (of one referrer), to net' },
]);

// A reversal's event is stored with its `done` (its last write), until published.
carriesEvents(rewardReversalSchema);

export const rewardReversalModel = (db: Connection): Model<RewardReversalDoc> =>
  (db.models.RewardReversal as Model<RewardReversalDoc> | undefined) ?? db.model<RewardReversalDoc>('RewardReversal', rewardReversalSchema);
