import type { DomainEvent } from '@ris/events';
import { GroupCommit } from '@ris/mongo';
import { currentTraceparent } from '@ris/telemetry';
import type { Deliveries } from '../deliveries/deliveries';
import type { DeliveryDoc } from '../deliveries/delivery.model';
import type { DeliveryIntake } from '../dispatch/dispatcher';
import type { EndpointDoc } from '../endpoints/endpoint.model';
import { subscribes, type Endpoints } from '../endpoints/endpoints';
import { WEBHOOK_EVENT_OF_DOMAIN_TYPE, recipientApps } from './webhook-events';

export type QueuedDelivery = Pick<DeliveryDoc, '_id' | 'endpointId'>;

interface Arrival {
  event: DomainEvent;
  /** The trace of the event's handling, which its deliveries continue. */
  traceparent?: string;
}

/** Events one flush fans out; with 1,000 endpoints an app's event alone is 1,000 deliveries. */
const FAN_OUT_BATCH = 64;

/**
 * The durable consumer's handler: one domain event becomes one delivery per
 * enabled endpoint (of each recipient app) subscribed to its webhook event.
 * An endpoint receives the events that occur after it was created: a new
 * endpoint is not flooded with the stream's history, e.g. when the consumer
 * is catching up after a restart.
 *
 * Events handled together are fanned out together (group commit): one read
 * of each app's enabled endpoints and one insert of all their deliveries,
 * and each event is acknowledged only after that insert. The deliveries the
 * dispatcher has room for are stored already leased to it and handed over
 * (no claim, no query to find them); the rest are stored due, for it (or
 * another replica) to claim.
 */
export function fanOutToWebhooks(endpoints: Endpoints, deliveries: Deliveries, intake: DeliveryIntake): (event: DomainEvent) => Promise<void> {
  const batches = new GroupCommit<Arrival, void>(async (arrivals) => {
    const wanted = arrivals.flatMap(({ event, traceparent }) => {
      const name = WEBHOOK_EVENT_OF_DOMAIN_TYPE[event.type];
      return name ? recipientApps(event).map((appId) => ({ appId, event, name, traceparent })) : [];
    });
    const apps = [...new Set(wanted.map((w) => w.appId))];
    const enabled = new Map<string, EndpointDoc[]>(await Promise.all(apps.map(async (appId) => [appId, await endpoints.enabled(appId)] as const)));
    const docs = wanted.flatMap(({ appId, event, name, traceparent }) => {
      const occurredAt = new Date(event.occurredAt).getTime();
      const targets = enabled.get(appId)!.filter((endpoint) => subscribes(endpoint, name) && !(endpoint.createdAt.getTime() > occurredAt));
      return deliveries.forEvent(appId, targets, event, name, traceparent);
    });
    if (docs.length === 0) return arrivals.map(() => undefined);
    const { lease, leaseUntil } = intake.newLease();
    const room = new Map<string, number>();
    for (const doc of docs) {
      const left = room.get(doc.endpointId) ?? intake.room(doc.endpointId);
      if (left > 0) Object.assign(doc, { lease, leaseUntil });
      room.set(doc.endpointId, left - 1);
    }
    const stored = await deliveries.queue(docs);
    const leased = stored.filter((doc) => doc.lease === lease);
    if (leased.length) intake.takeLeased(leased.map((delivery) => ({ delivery, lease })));
    const unleased = stored.filter((doc) => doc.lease !== lease);
    if (unleased.length) intake.enqueue(unleased.map(({ _id, endpointId }) => ({ _id, endpointId })));
    return arrivals.map(() => undefined);
  }, { maxBatch: FAN_OUT_BATCH });
  return (event) => (WEBHOOK_EVENT_OF_DOMAIN_TYPE[event.type] ? batches.add({ event, traceparent: currentTraceparent() }) : Promise.resolve());
}
