import { now } from '@ris/config';
import type { Logger } from '@ris/logging';
import { PeriodicRecovery, type RecoveryOptions } from '@ris/service-runtime';
import { moveRewardTo } from '../moves/move-reward';
import type { RewardStore } from '../rewards/reward-store';

/**
 * Approves the rewards whose holding period is over (availableAt passed,
 * no review holding them), every HOLD_RELEASE_INTERVAL_MS. Each approval
 * is a journaled move out of PENDING, so it happens once whichever replica
 * gets there, and a process dying half way is finished by the move
 * recovery; reward.approved is its event, as for any approval. The time is
 * the services' clock (a test moves it: libs/config clock.ts).
 */
export class HoldRelease extends PeriodicRecovery {
  constructor(
    private readonly store: RewardStore,
    logger: Logger,
    options: RecoveryOptions,
    // The services' clock; a spec passes its own.
    private readonly clock: () => Date = now,
  ) {
    super(logger, { ...options, runAtStart: true });
  }

  async runOnce(): Promise<void> {
    let released = 0;
    // Batch after batch until none is due: a backlog (the service was down for a day) drains in one pass.
    for (;;) {
      const due = await this.store.rewards.dueForRelease(this.clock(), this.batchSize);
      let movedNow = 0;
      for (const reward of due) {
        const moved = await moveRewardTo(this.store, reward, 'APPROVED', { approvedAt: this.clock() }).catch((err: unknown) => {
          this.logger.warn({ err, rewardId: reward._id }, 'held reward could not be released; will retry');
          return null;
        });
        if (moved) movedNow += 1;
      }
      released += movedNow;
      // A batch that moved nothing (others got there, or failures) is not drained by asking again.
      if (due.length < this.batchSize || movedNow === 0) break;
    }
    if (released > 0) this.logger.info({ released }, 'held rewards released');
  }
}
