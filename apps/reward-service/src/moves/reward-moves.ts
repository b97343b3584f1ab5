import type { Connection } from 'mongoose';
import { crashPoint } from '@ris/config';
import type { DomainEvent, Outbox, OutboxCarrier } from '@ris/events';
import { AppScoped, isDuplicateKeyError } from '@ris/mongo';
import { rewardMoveModel, type MoveOrigin, type RewardMoveDoc } from './reward-move.model';
import type { RewardStatusName } from '../rewards/reward.model';
import { rewardsMoved } from '../rewards/reward-metrics';
import { statesLeft } from './reward-transitions';

/** Where a move can come from: a creation (NEW), and every status a reward can leave. */
const LEAVABLE: readonly MoveOrigin[] = ['NEW', ...statesLeft()];

/** The journal of reward moves (see RewardMoveDoc). */
export class RewardMoves {
  readonly moves: AppScoped<RewardMoveDoc>;
  private readonly events: OutboxCarrier;

  constructor(db: Connection, outbox: Outbox) {
    this.moves = new AppScoped(rewardMoveModel(db));
    // A move is written again only by another attempt at finishing it (done again, the same events).
    this.events = outbox.carrier(this.moves.model);
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

  /**
   * The reward's journal, oldest first: its creation (from NEW) and each
   * status it left. A reward leaves each status at most once and the move's
   * _id says which, so this is one read by _id per status a reward can leave,
   * side by side; no index of its own. A move still being finished is
   * listed: it is decided, and the recovery pass completes it.
   */
  async history(appId: string, rewardId: string): Promise<RewardMoveDoc[]> {
    const moves = await Promise.all(LEAVABLE.map((from) => this.get(appId, rewardId, from)));
    return moves.filter((move): move is RewardMoveDoc => move !== null).sort((a, b) => a.at.getTime() - b.at.getTime());
  }

  /**
   * The move is finished; its events (if any) are stored with that mark, in
   * the same update, and published. Once: a second finisher of the same
   * move (the request and the recovery pass) stores nothing.
   */
  async done(move: RewardMoveDoc, events: DomainEvent[] = []): Promise<void> {
    const carried = this.events.carry(events);
    const marked = await this.moves.updateOne(move.appId, { _id: move._id, done: false }, carried.update({ $set: { done: true } }));
    if (marked === 0) return;
    crashPoint('reward.moved');
    carried.written(move);
    rewardsMoved.inc({ status: move.to });
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
