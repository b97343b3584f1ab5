import type { DomainEvent } from '@ris/events';
import type { Deliveries } from '../deliveries/deliveries';
import type { DeliveryDoc } from '../deliveries/delivery.model';
import { subscribes, type Endpoints } from '../endpoints/endpoints';
import { WEBHOOK_EVENT_OF_DOMAIN_TYPE, recipientApps } from './webhook-events';

/**
 * The durable consumer's handler: one domain event becomes one delivery per
 * enabled endpoint (of each recipient app) subscribed to its webhook event.
 * An endpoint receives the events that occur after it was created: a new
 * endpoint is not flooded with the stream's history, e.g. when the consumer
 * is catching up after a restart. The new deliveries go straight to the
 * dispatcher (onQueued), which then needs no query to find them.
 */

export type QueuedDelivery = Pick<DeliveryDoc, '_id' | 'endpointId'>;
export function fanOutToWebhooks(endpoints: Endpoints, deliveries: Deliveries, onQueued: (queued: QueuedDelivery[]) => void) {
  return async (event: DomainEvent): Promise<void> => {
    const name = WEBHOOK_EVENT_OF_DOMAIN_TYPE[event.type];
    if (!name) return;
    const occurredAt = new Date(event.occurredAt).getTime();
    const queued: QueuedDelivery[] = [];
    for (const appId of recipientApps(event)) {
      const targets = (await endpoints.enabled(appId)).filter(
        (endpoint) => subscribes(endpoint, name) && !(endpoint.createdAt.getTime() > occurredAt),
      );
      queued.push(...(await deliveries.createForEvent(appId, targets, event, name)));
    }
    if (queued.length) onQueued(queued);
  };
}
