import { WebhookService } from '@ris/contracts';
import { EventConsumer } from '@ris/events';
import { rpcService } from '@ris/rpc';
import { runService } from '@ris/service-runtime';
import { Deliveries } from './deliveries';
import { DeliveryQueue } from './delivery-queue';
import { Dispatcher } from './dispatcher';
import { EndpointHealth } from './endpoint-health';
import { Endpoints } from './endpoints';
import { WEBHOOK_DOMAIN_TYPES } from './webhook-events';
import { fanOutToWebhooks } from './webhook-fanout';
import { webhookRpc } from './webhook.rpc';
import { webhookSettings } from './webhook-settings';

void runService({
  name: 'webhook-service',
  defaultPort: 50056,
  settings: webhookSettings,
  build: ({ config, db, bus, outbox, logger }) => {
    const endpoints = new Endpoints(db, { allowPrivateTargets: config.WEBHOOK_ALLOW_PRIVATE_TARGETS });
    const deliveries = new Deliveries(db);
    const health = new EndpointHealth(db, outbox, logger, config.WEBHOOK_DISABLE_AFTER_MS);
    const dispatcher = new Dispatcher(new DeliveryQueue(db), endpoints, health, logger, {
      schedule: config.WEBHOOK_RETRY_SCHEDULE,
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      maxInFlight: config.WEBHOOK_MAX_IN_FLIGHT,
      maxInFlightPerEndpoint: config.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT,
      pollIntervalMs: config.WEBHOOK_POLL_INTERVAL_MS,
      allowPrivateTargets: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      retentionDays: config.WEBHOOK_RETENTION_DAYS,
    });
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
      start: () => dispatcher.start(),
      stop: () => dispatcher.stop(),
    };
  },
});
