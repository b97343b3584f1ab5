import { Counter, Gauge, Histogram } from 'prom-client';
import type { DeliveryRepository } from '../deliveries/delivery.repository';

// The webhook pipeline as an operator watches it (the endpoints disabled:
// endpoints/endpoint-health.ts). Labels are outcomes, never endpoints or apps.

export const webhookAttempts = new Counter({
  name: 'ris_webhook_attempts_total',
  help: 'Delivery attempts, by result: success (2xx), http_error (another status), no_response (timeout, refused, unresolvable)',
  labelNames: ['result'],
});

export const webhookAttemptDuration = new Histogram({
  name: 'ris_webhook_attempt_duration_seconds',
  help: 'Time from sending a delivery to its answer (or the timeout)',
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
});

export const webhookDeliveries = new Counter({
  name: 'ris_webhook_deliveries_total',
  help: 'Deliveries finished, by outcome: succeeded, or failed (retries exhausted, or its endpoint disabled)',
  labelNames: ['outcome'],
});

/**
 * ris_webhook_queue_depth and ris_webhook_oldest_pending_age_seconds, asked
 * from the delivery collection at each scrape (the claim's index on
 * status, nextAttemptAt answers both).
 */
export function watchDeliveryQueue(deliveries: DeliveryRepository): void {
  const oldest = new Gauge({
    name: 'ris_webhook_oldest_pending_age_seconds',
    help: 'How long the most overdue pending delivery has been due (0: nothing is waiting past its time)',
  });
  new Gauge({
    name: 'ris_webhook_queue_depth',
    help: 'Deliveries pending (due now or waiting for a retry)',
    async collect() {
      const now = new Date();
      const [depth, due] = await Promise.all([deliveries.pendingCount(), deliveries.oldestPendingDue()]);
      this.set(depth);
      oldest.set(due && due <= now ? (now.getTime() - due.getTime()) / 1000 : 0);
    },
  });
}
