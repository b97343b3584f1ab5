import { create } from '@bufbuild/protobuf';
import { timestampFromDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import type { ServiceImpl } from '@connectrpc/connect';
import {
  EndpointDisabledReason,
  WebhookDeliveryAttemptSchema,
  WebhookDeliverySchema,
  WebhookDeliveryStatus,
  WebhookEndpointSchema,
  WebhookEvent,
  enumName,
  enumValue,
  type WebhookDelivery,
  type WebhookDeliveryAttempt,
  type WebhookEndpoint,
  type WebhookService,
} from '@ris/contracts';
import { invalidArgument, pageFromRequest, pageReply, requiredField } from '@ris/rpc';
import type { Deliveries } from './deliveries/deliveries';
import type { DeliveryAttemptDoc } from './deliveries/delivery-attempt.model';
import type { DeliveryDoc, DeliveryStatusName } from './deliveries/delivery.model';
import type { EndpointDoc } from './endpoints/endpoint.model';
import type { Endpoints } from './endpoints/endpoints';

const time = (date: Date | null | undefined): Timestamp | undefined => (date ? timestampFromDate(date) : undefined);

function endpointToProto(doc: EndpointDoc, now = new Date()): WebhookEndpoint {
  const graceEnds = doc.previousSecrets.map((p) => p.expiresAt).filter((d) => d > now);
  return create(WebhookEndpointSchema, {
    id: doc._id,
    url: doc.url,
    events: doc.events.map((name) => enumValue(WebhookEvent, name)),
    description: doc.description ?? undefined,
    enabled: doc.enabled,
    disabledReason: enumValue(EndpointDisabledReason, doc.disabledReason),
    disabledAt: time(doc.disabledAt),
    failingSince: time(doc.failingSince),
    previousSecretExpiresAt: graceEnds.length ? timestampFromDate(new Date(Math.max(...graceEnds.map(Number)))) : undefined,
    createdAt: time(doc.createdAt),
    updatedAt: time(doc.updatedAt),
  });
}

function deliveryToProto(doc: DeliveryDoc): WebhookDelivery {
  return create(WebhookDeliverySchema, {
    id: doc._id,
    endpointId: doc.endpointId,
    messageId: doc.messageId,
    event: enumValue(WebhookEvent, doc.event),
    status: enumValue(WebhookDeliveryStatus, doc.status),
    attempts: doc.attempts,
    lastResponseStatus: doc.lastResponseStatus ?? undefined,
    lastError: doc.lastError ?? undefined,
    lastAttemptAt: time(doc.lastAttemptAt),
    nextAttemptAt: doc.status === 'PENDING' ? time(doc.nextAttemptAt) : undefined,
    createdAt: time(doc.createdAt),
    completedAt: time(doc.completedAt),
  });
}

function attemptToProto(doc: DeliveryAttemptDoc): WebhookDeliveryAttempt {
  return create(WebhookDeliveryAttemptSchema, {
    number: doc.number,
    startedAt: time(doc.startedAt),
    durationMs: doc.durationMs,
    responseStatus: doc.responseStatus ?? undefined,
    error: doc.error ?? undefined,
    responseBody: doc.responseBody,
    responseBodyTruncated: doc.responseBodyTruncated,
  });
}

/** Proto enum values → public names; an unknown number is the caller's mistake. */
function eventNames(values: WebhookEvent[]): string[] {
  return values.map((value) => {
    const name = enumName(WebhookEvent, value);
    if (!name) throw invalidArgument(`unknown webhook event ${value}`, { field: 'events' });
    return name;
  });
}

/**
 * Maps proto ⇄ domain. `wake` hands a delivery that became due (a retry, a
 * test event) to the dispatcher, so it goes out now rather than at the next poll.
 */
export function webhookRpc(
  endpoints: Endpoints,
  deliveries: Deliveries,
  wake: (delivery: Pick<DeliveryDoc, '_id' | 'endpointId'>) => void,
): ServiceImpl<typeof WebhookService> {
  return {
    async createEndpoint(req) {
      const { endpoint, secret } = await endpoints.create(requiredField(req.appId, 'appId'), {
        url: requiredField(req.url, 'url'),
        events: eventNames(req.events),
        description: req.description,
      }, req.operationKey);
      return { endpoint: endpointToProto(endpoint), secret };
    },

    async getEndpoint(req) {
      return { endpoint: endpointToProto(await endpoints.get(requiredField(req.appId, 'appId'), req.endpointId)) };
    },

    async listEndpoints(req) {
      const page = await endpoints.list(requiredField(req.appId, 'appId'), pageFromRequest(req.page));
      return {
        endpoints: page.items.map((doc) => endpointToProto(doc)),
        page: pageReply(page),
      };
    },

    async updateEndpoint(req) {
      const endpoint = await endpoints.update(requiredField(req.appId, 'appId'), req.endpointId, {
        url: req.url,
        events: req.replaceEvents ? eventNames(req.events) : undefined,
        description: req.clearDescription ? null : req.description,
        enabled: req.enabled,
      });
      return { endpoint: endpointToProto(endpoint) };
    },

    async deleteEndpoint(req) {
      const appId = requiredField(req.appId, 'appId');
      await endpoints.delete(appId, req.endpointId);
      await deliveries.removeForEndpoint(appId, req.endpointId);
      return {};
    },

    async rotateEndpointSecret(req) {
      const { endpoint, secret } = await endpoints.rotateSecret(requiredField(req.appId, 'appId'), req.endpointId, req.operationKey);
      return { endpoint: endpointToProto(endpoint), secret };
    },

    async listDeliveries(req) {
      const appId = requiredField(req.appId, 'appId');
      await endpoints.get(appId, req.endpointId);
      const status = enumName(WebhookDeliveryStatus, req.status) as DeliveryStatusName | undefined;
      const page = await deliveries.list(appId, req.endpointId, pageFromRequest(req.page), status);
      return {
        deliveries: page.items.map(deliveryToProto),
        page: pageReply(page),
      };
    },

    async getDelivery(req) {
      const appId = requiredField(req.appId, 'appId');
      const delivery = await deliveries.get(appId, req.endpointId, req.deliveryId);
      const attempts = await deliveries.attemptLog(appId, delivery._id);
      return { delivery: deliveryToProto(delivery), payloadJson: delivery.payload, attempts: attempts.map(attemptToProto) };
    },

    async retryDelivery(req) {
      const appId = requiredField(req.appId, 'appId');
      const endpoint = await endpoints.get(appId, req.endpointId);
      const delivery = await deliveries.retry(appId, endpoint, req.deliveryId);
      wake(delivery);
      return { delivery: deliveryToProto(delivery) };
    },

    async sendTestEvent(req) {
      const appId = requiredField(req.appId, 'appId');
      const endpoint = await endpoints.get(appId, req.endpointId);
      const delivery = await deliveries.createTest(appId, endpoint, req.operationKey);
      wake(delivery);
      return { delivery: deliveryToProto(delivery) };
    },
  };
}
