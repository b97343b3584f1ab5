import type { Connection } from 'mongoose';
import { Counter, Gauge, Histogram } from 'prom-client';
import { deliveryModel } from '../deliveries/delivery.model';

// The webhook pipeline as an operator watches it. Labels are outcomes,
// never endpoints or apps.

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

export const webhookEndpointsDisabled = new Counter({
  name: 'ris_webhook_endpoints_disabled_total',
  help: 'Endpoints this process disabled after they failed every delivery for WEBHOOK_DISABLE_AFTER_MS',
});

/**
 * ris_webhook_queue_depth and ris_webhook_oldest_pending_age_seconds, asked
 * from the delivery collection at each scrape (the claim's index on
 * status, nextAttemptAt answers both).
 */
export function watchDeliveryQueue(db: Connection): void {
  const deliveries = deliveryModel(db);
  const oldest = new Gauge({
    name: 'ris_webhook_oldest_pending_age_seconds',
    help: 'How long the most overdue pending delivery has been due (0: nothing is waiting past its time)',
  });
  new Gauge({
    name: 'ris_webhook_queue_depth',
    help: 'Deliveries pending (due now or waiting for a retry)',
    async collect() {
      const now = new Date();
      const [depth, first] = await Promise.all([
        deliveries.countDocuments({ status: 'PENDING' }).exec(),
        deliveries.findOne({ status: 'PENDING' }, { nextAttemptAt: 1 }).sort({ nextAttemptAt: 1 }).lean().exec(),
      ]);
      this.set(depth);
      const due = first?.nextAttemptAt;
      oldest.set(due && due <= now ? (now.getTime() - due.getTime()) / 1000 : 0);
    },
  });
}
