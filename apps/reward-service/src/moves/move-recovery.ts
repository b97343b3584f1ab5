import type { Logger } from '@ris/logging';
import { PeriodicRecovery, type RecoveryOptions } from '@ris/service-runtime';
import { finishOpenPayouts } from '../payouts/payout-recovery';
import type { RewardStore } from '../rewards/reward-store';
import { finishOpenReversals } from '../reversals/reverse-rewards';
import { finishOpenMoves } from './move-reward';

// A move normally finishes within its request; one open this long lost its process (MOVE_ABANDONED_AFTER_MS).
const MOVE_ABANDONED_AFTER_MS = 30_000;

/**
 * Finishes reward moves (status, totals, events), reversals and payouts a dead process left open,
 * at start-up and every RECOVERY_INTERVAL_MS. Every step of a move is safe
 * to repeat, so each replica runs it; it works across apps (a system job).
 */
export class MoveRecovery extends PeriodicRecovery {
  private readonly abandonedAfterMs: number;

  constructor(
    private readonly store: RewardStore,
    logger: Logger,
    options: RecoveryOptions & { abandonedAfterMs?: number },
  ) {
    super(logger, { ...options, runAtStart: true });
    this.abandonedAfterMs = options.abandonedAfterMs ?? MOVE_ABANDONED_AFTER_MS;
  }

  async runOnce(): Promise<void> {
    const finished = await finishOpenMoves(
      this.store,
      this.abandonedAfterMs,
      (err, move) => this.logger.warn({ err, moveId: move._id }, 'reward move could not be finished; will retry'),
      this.batchSize,
    );
    if (finished > 0) this.logger.info({ finished }, 'interrupted reward moves finished');
    const reversed = await finishOpenReversals(
      this.store,
      this.abandonedAfterMs,
      (err, reversal) => this.logger.warn({ err, reversalId: reversal._id }, 'reward reversal could not be finished; will retry'),
      this.batchSize,
    );
    if (reversed > 0) this.logger.info({ reversed }, 'interrupted reward reversals finished');
    const payouts = await finishOpenPayouts(
      this.store,
      this.abandonedAfterMs,
      (err, payout) => this.logger.warn({ err, payoutId: payout._id }, 'payout could not be finished; will retry'),
      this.batchSize,
    );
    if (payouts > 0) this.logger.info({ payouts }, 'interrupted payouts finished');
  }
}
