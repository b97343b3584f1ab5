import type { Logger } from '@ris/logging';
import { flushTraces } from '@ris/telemetry';

/** The time a stop has left. */
export interface StopDeadline {
  left(): number;
}

/**
 * The stop of an app process on SIGTERM or SIGINT (what Kubernetes and
 * npm start send): runs `steps` once, whatever signal repeats, then sends
 * the spans still buffered and exits 0. If the steps take longer than
 * graceMs the process exits 1 anyway, so it is gone before Kubernetes
 * kills it (terminationGracePeriodSeconds covers preStop plus graceMs).
 */
export function gracefulStop(logger: Logger, graceMs: number, steps: (deadline: StopDeadline) => Promise<void>): (signal: string) => Promise<void> {
  let stopping = false;
  return async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    logger.info({ signal, graceMs }, 'stopping');
    const force = setTimeout(() => {
      logger.error({ graceMs }, 'stop took longer than SHUTDOWN_GRACE_MS; exiting with work unfinished');
      process.exit(1);
    }, graceMs);
    force.unref();
    // Leaves a second for what follows the step that is given the time.
    await steps({ left: () => Math.max(0, graceMs - (Date.now() - started) - 1000) });
    await flushTraces().catch(() => undefined);
    logger.info({ durationMs: Date.now() - started }, 'stopped');
    process.exit(0);
  };
}
