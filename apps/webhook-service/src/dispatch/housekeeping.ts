import type { Logger } from '@ris/logging';
import { PeriodicTask } from '@ris/service-runtime';
import type { EndpointHealth } from '../endpoints/endpoint-health';
import type { DeliveryQueue } from './delivery-queue';

const DAY_MS = 86_400_000;

/**
 * Housekeeping beside the dispatcher, not in its claim loop: disabled
 * endpoints whose event a dead process of an earlier release did not
 * store (every minute), and finished deliveries past retention (every
 * hour); both at start-up too.
 */
export function webhookHousekeeping(health: EndpointHealth, queue: DeliveryQueue, retentionDays: number, logger: Logger): PeriodicTask[] {
  return [
    new PeriodicTask(() => health.announcePendingDisabled(), {
      intervalMs: 60_000,
      runAtStart: true,
      onError: (err) => logger.warn({ err }, 'announcing disabled endpoints failed; will retry'),
    }),
    new PeriodicTask(() => queue.removeFinishedBefore(new Date(Date.now() - retentionDays * DAY_MS)), {
      intervalMs: 3_600_000,
      runAtStart: true,
      onError: (err) => logger.warn({ err }, 'delivery retention pass failed; will retry'),
    }),
  ];
}
