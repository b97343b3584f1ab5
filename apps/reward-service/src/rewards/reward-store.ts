import type { Connection } from 'mongoose';
import type { Outbox } from '@ris/events';
import { RewardCodeRepository } from '../codes/reward-code.repository';
import { RewardMoveRepository } from '../moves/reward-move.repository';
import { PayoutRepository } from '../payouts/payout.repository';
import { RewardReversalRepository } from '../reversals/reward-reversal.repository';
import { RewardSlotRepository } from '../slots/reward-slot.repository';
import { RewardTotalsRepository } from '../totals/reward-totals.repository';
import { RewardRepository } from './reward.repository';

/**
 * What every reward operation works with: the repositories of the rewards,
 * their codes, moves, totals, places, reversals and payouts.
 */
export interface RewardStore {
  readonly rewards: RewardRepository;
  readonly codes: RewardCodeRepository;
  readonly moves: RewardMoveRepository;
  readonly totals: RewardTotalsRepository;
  readonly slots: RewardSlotRepository;
  readonly reversals: RewardReversalRepository;
  readonly payouts: PayoutRepository;
}

/** The repositories on the service's database (main.ts, and the specs through testing/). */
export function rewardStore(db: Connection, outbox: Outbox): RewardStore {
  return {
    rewards: new RewardRepository(db),
    codes: new RewardCodeRepository(db, outbox),
    moves: new RewardMoveRepository(db, outbox),
    totals: new RewardTotalsRepository(db),
    slots: new RewardSlotRepository(db),
    reversals: new RewardReversalRepository(db, outbox),
    payouts: new PayoutRepository(db, outbox),
  };
}
