import type { Connection } from 'mongoose';
import { crashPoint } from '@ris/config';
import type { DomainEvent, Outbox, OutboxCarrier } from '@ris/events';
import { OnceMarkers, Repository } from '@ris/mongo';
import type { RewardStatusName } from '../rewards/reward.model';
import { rewardMoveModel, type MoveOrigin, type RewardMoveDoc } from './reward-move.model';
import { statesLeft } from './reward-transitions';

/** Where a move can come from: a creation (NEW), and every status a reward can leave. */
const LEAVABLE: readonly MoveOrigin[] = ['NEW', ...statesLeft()];

/** The journal of reward moves (see RewardMoveDoc), and who counts each move's totals. */
export class RewardMoveRepository extends Repository<RewardMoveDoc> {
  private readonly events: OutboxCarrier;
  /** One marker per move whose totals were counted: the first finisher counts them, no other. */
  private readonly counted: OnceMarkers;

  constructor(db: Connection, outbox: Outbox) {
    super(rewardMoveModel(db));
    // A move is written again only by another attempt at finishing it (done again, the same events).
    this.events = outbox.carrier(this.collection.model);
    this.counted = new OnceMarkers(db);
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
    const [inserted] = await this.insertNew([move]);
    return inserted ? move : null;
  }

  get(appId: string, rewardId: string, from: MoveOrigin): Promise<RewardMoveDoc | null> {
    return this.findById(appId, `${rewardId}:${from}`);
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

  /** True for the one caller that counts this move's totals (the request and the recovery pass may both finish it). */
  countsTotals(move: RewardMoveDoc): Promise<boolean> {
    return this.counted.first(move.appId, `reward-move:${move._id}:totals`);
  }

  /**
   * The move is finished; its events (if any) are stored with that mark, in
   * the same update, and published. Once: a second finisher of the same
   * move (the request and the recovery pass) stores nothing and gets false.
   */
  async done(move: RewardMoveDoc, events: DomainEvent[] = []): Promise<boolean> {
    const carried = this.events.carry(events);
    const marked = await this.collection.updateOne(move.appId, { _id: move._id, done: false }, carried.update({ $set: { done: true } }));
    if (marked === 0) return false;
    crashPoint('reward.moved');
    carried.written(move);
    return true;
  }

  /** An open move that did not happen (see finishMove): forgotten, so the reward can leave its status another way. */
  async discard(move: RewardMoveDoc): Promise<void> {
    await this.collection.deleteOne(move.appId, { _id: move._id, done: false });
  }

  /** Moves still open after `olderThanMs`, oldest first. Across apps: the recovery pass serves every app. */
  open(olderThanMs: number, limit: number): Promise<RewardMoveDoc[]> {
    return this.acrossApps
      .find({ done: false, at: { $lt: new Date(Date.now() - olderThanMs) } })
      .sort({ at: 1 })
      .limit(limit)
      .lean<RewardMoveDoc[]>()
      .exec();
  }

  /** Rewards with a move still open, of one app or (a maintenance command) of all. */
  async rewardsMoving(appId?: string): Promise<Set<string>> {
    const open = await this.acrossApps
      .find({ ...(appId ? { appId } : {}), done: false })
      .lean<RewardMoveDoc[]>()
      .exec();
    return new Set(open.map((move) => move.rewardId));
  }
}
