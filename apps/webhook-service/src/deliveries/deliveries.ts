import { randomUUID } from 'node:crypto';
import { conflict, notFound } from '@ris/domain-errors';
import type { DomainEvent } from '@ris/events';
import { idFromOperation, newId, type Page, type PageQuery } from '@ris/mongo';
import { currentTraceparent } from '@ris/telemetry';
import type { EndpointDoc } from '../endpoints/endpoint.model';
import { messageIdOf, webhookBody, type WebhookEventName } from '../events/webhook-events';
import type { DeliveryAttemptDoc } from './delivery-attempt.model';
import type { DeliveryAttemptRepository } from './delivery-attempt.repository';
import type { DeliveryDoc, DeliveryStatusName } from './delivery.model';
import type { DeliveryRepository } from './delivery.repository';
import { PendingInsert } from './pending-insert';

const EPOCH = new Date(0);

function newDelivery(
  appId: string,
  endpointId: string,
  fields: { eventId: string; messageId: string; event: WebhookEventName; payload: string },
  now: Date,
  id = newId('whd'),
): DeliveryDoc {
  return {
    _id: id,
    appId,
    endpointId,
    ...fields,
    status: 'PENDING',
    attempts: 0,
    retryIndex: 0,
    autoRetry: true,
    nextAttemptAt: now,
    leaseUntil: EPOCH,
    lease: null,
    claimable: true,
    lastAttemptAt: null,
    lastResponseStatus: null,
    lastError: null,
    createdAt: now,
    completedAt: null,
  };
}

/** Deliveries as the API sees them: created from events, listed, inspected, retried. */
export class Deliveries {
  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly attempts: DeliveryAttemptRepository,
  ) {}

  /**
   * One delivery per endpoint for this event, not stored yet (queue does).
   * The trace the event continues is the caller's.
   */
  forEvent(appId: string, endpoints: EndpointDoc[], event: DomainEvent, name: WebhookEventName, traceparent = currentTraceparent()): DeliveryDoc[] {
    if (endpoints.length === 0) return [];
    const messageId = messageIdOf(event.id);
    const payload = webhookBody(messageId, name, event.occurredAt, event.data);
    const now = new Date();
    const docs = endpoints.map((endpoint) => newDelivery(appId, endpoint._id, { eventId: event.id, messageId, event: name, payload }, now));
    if (traceparent) for (const doc of docs) doc.traceparent = traceparent;
    return docs;
  }

  /**
   * Stores deliveries (of several events and apps) in one write.
   * Idempotent: the unique (endpointId, eventId) index turns a second
   * fan-out of the same event (redelivery, crash before the consumer
   * recorded it) into no-ops. Returns those stored by this call: the
   * duplicates already existed (and the dispatcher finds them, if still
   * due, by its own query).
   */
  async queue(docs: DeliveryDoc[]): Promise<DeliveryDoc[]> {
    if (docs.length === 0) return [];
    const stored = await this.deliveries.queue(docs);
    return docs.filter((_, i) => stored[i]);
  }

  /** queue(), after the first attempts of `attempting` of them have ended (at most `windowMs`): PendingInsert. */
  pendingInsert(docs: DeliveryDoc[], attempting: number, windowMs: number): PendingInsert {
    return new PendingInsert(docs, attempting, windowMs, (deliveries) => this.queue(deliveries));
  }

  /** forEvent and queue, for one event: the deliveries stored. */
  async createForEvent(
    appId: string,
    endpoints: EndpointDoc[],
    event: DomainEvent,
    name: WebhookEventName,
  ): Promise<Array<Pick<DeliveryDoc, '_id' | 'endpointId'>>> {
    return (await this.queue(this.forEvent(appId, endpoints, event, name))).map(({ _id, endpointId }) => ({ _id, endpointId }));
  }

  /** A WEBHOOK_TEST delivery to one endpoint; one per request operation key (a retry of the request answers it again). */
  async createTest(appId: string, endpoint: EndpointDoc, operationKey = ''): Promise<DeliveryDoc> {
    const eventId = operationKey || randomUUID();
    const messageId = messageIdOf(eventId);
    const now = new Date();
    const payload = webhookBody(messageId, 'WEBHOOK_TEST', now.toISOString(), {
      webhookId: endpoint._id,
      message: 'This is a test event sent from the webhook settings of your app.',
    });
    const { appId: _app, ...doc } = newDelivery(
      appId,
      endpoint._id,
      { eventId: `test:${eventId}`, messageId, event: 'WEBHOOK_TEST', payload },
      now,
      idFromOperation('whd', operationKey),
    );
    return (await this.deliveries.createOnce(appId, doc)).doc;
  }

  list(appId: string, endpointId: string, page: PageQuery, status?: DeliveryStatusName): Promise<Page<DeliveryDoc>> {
    return this.deliveries.list(appId, endpointId, page, status);
  }

  async get(appId: string, endpointId: string, deliveryId: string): Promise<DeliveryDoc> {
    const delivery = await this.deliveries.ofEndpoint(appId, endpointId, deliveryId);
    if (!delivery) throw notFound('Delivery', { webhookId: endpointId, deliveryId });
    return delivery;
  }

  /** A delivery's attempts in order: the first inside it when it was made before the delivery was stored, the others logged. */
  async attemptLog(delivery: DeliveryDoc): Promise<DeliveryAttemptDoc[]> {
    const logged = await this.attempts.ofDelivery(delivery.appId, delivery._id);
    if (!delivery.firstAttempt) return logged;
    const { appId, endpointId, _id: deliveryId } = delivery;
    return [{ ...delivery.firstAttempt, appId, endpointId, deliveryId, number: 1 }, ...logged];
  }

  /**
   * Makes the delivery due now. A PENDING one keeps its remaining retries; a
   * finished one gets a single further attempt. One being attempted at this
   * moment is left alone (409): a second concurrent send would only confuse.
   */
  async retry(appId: string, endpoint: EndpointDoc, deliveryId: string): Promise<DeliveryDoc> {
    const current = await this.get(appId, endpoint._id, deliveryId);
    const now = new Date();
    if (!endpoint.enabled && current.event !== 'WEBHOOK_TEST') {
      throw conflict('CONFLICT', 'The webhook endpoint is disabled; enable it before retrying its deliveries.', {
        webhookId: endpoint._id,
      });
    }
    const updated = await this.deliveries.setWhileIdle(
      appId,
      endpoint._id,
      deliveryId,
      current.status,
      now,
      // claimable: also one whose lease ran out (its dispatcher died), which the due query would otherwise leave to the sweep.
      current.status === 'PENDING'
        ? { nextAttemptAt: now, claimable: true }
        : { status: 'PENDING', claimable: true, nextAttemptAt: now, autoRetry: false, completedAt: null },
    );
    if (!updated) {
      throw conflict('CONFLICT', 'The delivery is being attempted right now; look at it again in a moment.', {
        deliveryId,
      });
    }
    return updated;
  }

  /** An endpoint is gone: so are its deliveries and their log. */
  async removeForEndpoint(appId: string, endpointId: string): Promise<void> {
    await this.deliveries.removeForEndpoint(appId, endpointId);
    await this.attempts.removeForEndpoint(appId, endpointId);
  }
}
