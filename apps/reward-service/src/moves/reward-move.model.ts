import { Schema, type Connection, type Model } from 'mongoose';
import { carriesEvents, type OutboxFields } from '@ris/events';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { RewardStatusName } from '../rewards/reward.model';
import type { RewardMoveRepository } from './reward-move.repository';

/** A reward's creation counts as leaving NEW. */
export type MoveOrigin = RewardStatusName | 'NEW';

/**
 * One status change of a reward and what it owes: the status (with its
 * date fields), the campaign and user totals, a cancelled reward's place,
 * and its event. _id is `${rewardId}:${from}`: a reward leaves a status at
 * most once, and the unique insert of this document decides which of
 * concurrent moves (two redeems; an approval racing a cancellation) is it,
 * on MongoDB and on FerretDB alike. `done` is set once everything owed is
 * written; the recovery pass finishes the moves a dead process left open.
 */
export interface RewardMoveDoc extends OutboxFields {
  _id: string;
  appId: string;
  rewardId: string;
  from: MoveOrigin;
  to: RewardStatusName;
  /** Written with the status: approvedAt, redeemedAt, cancelledAt. */
  fields: Record<string, unknown>;
  at: Date;
  done: boolean;
  /**
   * The operation key of the request that asked for the move (from its
   * Idempotency-Key), if any: a retry of that request finds its own move
   * here and answers it, instead of 409 INVALID_TRANSITION.
   */
  operationKey?: string | null;
}

const rewardMoveSchema = new Schema<RewardMoveDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    rewardId: { type: String, required: true },
    from: { type: String, required: true },
    to: { type: String, required: true },
    fields: { type: Schema.Types.Mixed, default: {} },
    at: { type: Date, required: true },
    done: { type: Boolean, required: true },
    operationKey: { type: String, default: null },
  },
  { collection: 'reward_moves', versionKey: false, minimize: false },
);
declareIndexes<QueryNames<RewardMoveRepository>>(rewardMoveSchema, [
  { keys: { done: 1, at: 1 }, serves: ['open', 'rewardsMoving'], why: 'the recovery pass: open moves, oldest first (a system job across apps); the totals rebuild' },
]);

// A move's events are stored with its `done` (the move's last write), until published.
carriesEvents(rewardMoveSchema);

export const rewardMoveModel = (db: Connection): Model<RewardMoveDoc> =>
  (db.models.RewardMove as Model<RewardMoveDoc> | undefined) ?? db.model<RewardMoveDoc>('RewardMove', rewardMoveSchema);
