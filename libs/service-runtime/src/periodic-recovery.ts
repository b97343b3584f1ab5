import type { Logger } from '@ris/logging';
import { PeriodicTask } from './periodic-task';

export interface RecoveryOptions {
  intervalMs: number;
  /** Records one pass takes of each kind (default 100). */
  batchSize?: number;
}

/**
 * A service's recovery pass: it finishes what requests could not, every
 * intervalMs (and at start-up when asked), never two passes at once; a
 * failed pass is logged and the next one runs as usual. A subclass says
 * what one pass does (runOnce); start() and stop() are wired in main.ts.
 */
export abstract class PeriodicRecovery {
  private readonly task: PeriodicTask;
  protected readonly batchSize: number;

  protected constructor(
    protected readonly logger: Logger,
    options: RecoveryOptions & { runAtStart?: boolean },
  ) {
    this.batchSize = options.batchSize ?? 100;
    this.task = new PeriodicTask(() => this.runOnce(), {
      intervalMs: options.intervalMs,
      runAtStart: options.runAtStart,
      onError: (err) => this.logger.warn({ err }, 'recovery pass failed; will retry'),
    });
  }

  start(): void {
    this.task.start();
  }

  stop(): Promise<void> {
    return this.task.stop();
  }

  abstract runOnce(): Promise<void>;
}

/** One record's recovery: its failure (a dependency still down, say) is logged with `about` and does not stop the others. */
export async function recoverIsolated(logger: Logger, about: Record<string, string>, message: string, work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (err) {
    logger.warn({ err, ...about }, message);
  }
}
