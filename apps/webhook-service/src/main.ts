// First: tracing, when configured, starts before what it instruments loads.
import '@ris/telemetry/start-tracing';
import { WebhookService } from '@ris/contracts';
import { EventConsumer } from '@ris/events';
import { rpcService } from '@ris/rpc';
import { EnvelopeCipher } from '@ris/secrets';
import { PeriodicTask, runService } from '@ris/service-runtime';
import { Deliveries } from './deliveries/deliveries';
import { DeliveryQueue } from './dispatch/delivery-queue';
import { Dispatcher } from './dispatch/dispatcher';
import { EndpointHealth } from './endpoints/endpoint-health';
import { Endpoints } from './endpoints/endpoints';
import { WEBHOOK_DOMAIN_TYPES } from './events/webhook-events';
import { fanOutToWebhooks } from './events/webhook-fanout';
import { webhookRpc } from './webhook.rpc';
import { watchDeliveryQueue } from './dispatch/webhook-metrics';
import { webhookSettings } from './webhook-settings';

void runService({
  name: 'webhook-service',
  defaultPort: 50056,
  settings: webhookSettings,
  build: ({ config, db, bus, outbox, logger }) => {
    const endpoints = new Endpoints(db, { allowPrivateTargets: config.WEBHOOK_ALLOW_PRIVATE_TARGETS }, new EnvelopeCipher(config.SECRETS_KEYS));
    const deliveries = new Deliveries(db);
    const health = new EndpointHealth(db, outbox, logger, config.WEBHOOK_DISABLE_AFTER_MS);
    const queue = new DeliveryQueue(db);
    const dispatcher = new Dispatcher(queue, endpoints, health, logger, {
      schedule: config.WEBHOOK_RETRY_SCHEDULE,
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      maxInFlight: config.WEBHOOK_MAX_IN_FLIGHT,
      maxInFlightPerEndpoint: config.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT,
      pollIntervalMs: config.WEBHOOK_POLL_INTERVAL_MS,
      allowPrivateTargets: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      // A stop lets attempts in flight finish (each ends within WEBHOOK_TIMEOUT_MS), within the process's own grace.
      stopGraceMs: Math.max(1000, config.SHUTDOWN_GRACE_MS - 3000),
    });
    watchDeliveryQueue(db);
    // Housekeeping beside the dispatcher, not in its claim loop: disabled endpoints whose event a dead
    // process of an earlier release did not store, and finished deliveries past retention.
    const housekeeping = [
      new PeriodicTask(() => health.announcePendingDisabled(), {
        intervalMs: 60_000,
        runAtStart: true,
        onError: (err) => logger.warn({ err }, 'announcing disabled endpoints failed; will retry'),
      }),
      new PeriodicTask(() => queue.removeFinishedBefore(new Date(Date.now() - config.WEBHOOK_RETENTION_DAYS * 86_400_000)), {
        intervalMs: 3_600_000,
        runAtStart: true,
        onError: (err) => logger.warn({ err }, 'delivery retention pass failed; will retry'),
      }),
    ];
    const fanOut = new EventConsumer({
      bus,
      durable: 'webhook-fanout',
      types: WEBHOOK_DOMAIN_TYPES,
      connection: db,
      logger,
      // Deliveries are not ordered, so events fan out side by side.
      concurrency: 16,
      // A delivery is unique per (endpoint, event): a redelivered event adds none.
      idempotentHandler: true,
      handle: fanOutToWebhooks(endpoints, deliveries, (queued) => dispatcher.enqueue(queued)),
    });
    return {
      services: [rpcService(WebhookService, webhookRpc(endpoints, deliveries, (delivery) => dispatcher.enqueue([delivery])))],
      consumers: [fanOut],
      start: () => {
        dispatcher.start();
        for (const task of housekeeping) task.start();
      },
      stop: async () => {
        await Promise.all([dispatcher.stop(), ...housekeeping.map((task) => task.stop())]);
      },
    };
  },
});
