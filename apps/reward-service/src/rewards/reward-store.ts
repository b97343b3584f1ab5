import type { Connection } from 'mongoose';
import type { Outbox, OutboxCarrier } from '@ris/events';
import { AppScoped, OnceMarkers } from '@ris/mongo';
import { notFound } from '@ris/rpc';
import { rewardCodeModel, type RewardCodeDoc } from '../codes/reward-code.model';
import { rewardModel, type RewardDoc } from './reward.model';
import { RewardMoves } from '../moves/reward-moves';
import { RewardSlots } from '../slots/reward-slots';
import { RewardTotals } from '../totals/reward-totals';

/** What every reward operation works with: the rewards, their codes, places, totals, moves and markers. */
export class RewardStore {
  readonly rewards: AppScoped<RewardDoc>;
  readonly codes: AppScoped<RewardCodeDoc>;
  readonly totals: RewardTotals;
  readonly slots: RewardSlots;
  readonly once: OnceMarkers;
  readonly moves: RewardMoves;
  /** reward.claimed, stored with the claimed code. */
  readonly codeEvents: OutboxCarrier;

  constructor(db: Connection, outbox: Outbox) {
    this.rewards = new AppScoped(rewardModel(db));
    this.codes = new AppScoped(rewardCodeModel(db));
    this.totals = new RewardTotals(db);
    this.slots = new RewardSlots(db);
    this.once = new OnceMarkers(db);
    this.moves = new RewardMoves(db, outbox);
    // Codes are never written again.
    this.codeEvents = outbox.carrier(this.codes.model);
  }

  async get(appId: string, rewardId: string): Promise<RewardDoc> {
    const reward = await this.rewards.findOne(appId, { _id: rewardId });
    if (!reward) throw notFound('Reward', { rewardId });
    return reward;
  }
}
