import type { Connection } from 'mongoose';
import { AppScoped, isDuplicateKeyError } from '@ris/mongo';
import { rewardMoveModel, type MoveOrigin, type RewardMoveDoc } from './reward-move.model';
import type { RewardStatusName } from './reward.model';

/** The journal of reward moves (see RewardMoveDoc). */
export class RewardMoves {
  readonly moves: AppScoped<RewardMoveDoc>;

  constructor(db: Connection) {
    this.moves = new AppScoped(rewardMoveModel(db));
  }

  /**
   * Records that the reward leaves `from` for `to`; null when a move out
   * of `from` is already recorded (another caller's, or an earlier attempt).
   */
  async begin(
    appId: string,
    rewardId: string,
    from: MoveOrigin,
    to: RewardStatusName,
    fields: Record<string, unknown>,
    operationKey: string | null = null,
  ): Promise<RewardMoveDoc | null> {
    const move: RewardMoveDoc = { _id: `${rewardId}:${from}`, appId, rewardId, from, to, fields, at: new Date(), done: false, operationKey };
    try {
      await this.moves.insertMany([move]);
      return move;
    } catch (err) {
      if (isDuplicateKeyError(err)) return null;
      throw err;
    }
  }

  get(appId: string, rewardId: string, from: MoveOrigin): Promise<RewardMoveDoc | null> {
    return this.moves.findById(appId, `${rewardId}:${from}`);
  }

  async done(move: RewardMoveDoc): Promise<void> {
    await this.moves.updateOne(move.appId, { _id: move._id }, { $set: { done: true } });
  }

  /** Moves still open after `olderThanMs`, oldest first, of every app: the recovery pass's work. */
  open(olderThanMs: number, limit: number): Promise<RewardMoveDoc[]> {
    return this.moves.model
      .find({ done: false, at: { $lt: new Date(Date.now() - olderThanMs) } })
      .sort({ at: 1 })
      .limit(limit)
      .lean<RewardMoveDoc[]>()
      .exec();
  }
}
