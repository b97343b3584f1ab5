// First: tracing, when configured, starts before what it instruments loads.
import '@ris/telemetry/start-tracing';
import { EventConsumer } from '@ris/events';
import { EnvelopeCipher } from '@ris/secrets';
import { runService } from '@ris/service-runtime';
import { Deliveries } from './deliveries/deliveries';
import { DeliveryAttemptRepository } from './deliveries/delivery-attempt.repository';
import { DeliveryRepository } from './deliveries/delivery.repository';
import { DeliveryQueue } from './dispatch/delivery-queue';
import { Dispatcher } from './dispatch/dispatcher';
import { webhookHousekeeping } from './dispatch/housekeeping';
import { watchDeliveryQueue } from './dispatch/webhook-metrics';
import { EndpointHealth } from './endpoints/endpoint-health';
import { EndpointRepository } from './endpoints/endpoint.repository';
import { Endpoints } from './endpoints/endpoints';
import { WEBHOOK_DOMAIN_TYPES } from './events/webhook-events';
import { fanOutToWebhooks } from './events/webhook-fanout';
import { webhookService } from './webhook.rpc';
import { webhookSettings } from './webhook-settings';

void runService({
  name: 'webhook-service',
  defaultPort: 50056,
  settings: webhookSettings,
  build: ({ config, db, bus, outbox, logger }) => {
    const endpointStore = new EndpointRepository(db, outbox);
    const deliveryStore = new DeliveryRepository(db);
    const attemptStore = new DeliveryAttemptRepository(db);
    const endpoints = new Endpoints(endpointStore, { allowPrivateTargets: config.WEBHOOK_ALLOW_PRIVATE_TARGETS }, new EnvelopeCipher(config.SECRETS_KEYS));
    const deliveries = new Deliveries(deliveryStore, attemptStore);
    const health = new EndpointHealth(endpointStore, logger, config.WEBHOOK_DISABLE_AFTER_MS);
    const queue = new DeliveryQueue(deliveryStore, attemptStore);
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
    watchDeliveryQueue(deliveryStore);
    const housekeeping = webhookHousekeeping(health, queue, config.WEBHOOK_RETENTION_DAYS, logger);
    const fanOut = new EventConsumer({
      bus,
      durable: 'webhook-fanout',
      types: WEBHOOK_DOMAIN_TYPES,
      connection: db,
      logger,
      // Deliveries are not ordered, so events fan out side by side, and those handled together share one
      // read of the endpoints and one insert (webhook-fanout.ts).
      concurrency: 256,
      // A delivery is unique per (endpoint, event): a redelivered event adds none.
      idempotentHandler: true,
      handle: fanOutToWebhooks(endpoints, deliveries, dispatcher),
    });
    return {
      services: [webhookService(endpoints, deliveries, (delivery) => dispatcher.enqueue([delivery]))],
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
