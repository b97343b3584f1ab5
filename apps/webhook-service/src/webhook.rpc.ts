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
  WebhookService,
  enumName,
  enumValue,
  type WebhookDelivery,
  type WebhookDeliveryAttempt,
  type WebhookEndpoint,
} from '@ris/contracts';
import { invalidArgument, messageFields, pageFromRequest, pageReply, requiredField, rpcService, tenantOf, type RpcService } from '@ris/rpc';
import type { Deliveries } from './deliveries/deliveries';
import type { DeliveryAttemptDoc } from './deliveries/delivery-attempt.model';
import type { DeliveryDoc, DeliveryStatusName } from './deliveries/delivery.model';
import type { EndpointDoc } from './endpoints/endpoint.model';
import type { Endpoints } from './endpoints/endpoints';

const time = (date: Date | null | undefined): Timestamp | undefined => (date ? timestampFromDate(date) : undefined);

// Answers: the stored fields of the same name as they are (messageFields); enums, ids and computed fields named.

function endpointToProto(doc: EndpointDoc, now = new Date()): WebhookEndpoint {
  // The signing secrets never leave the service: only when the previous one stops signing.
  const { secret: _secret, previousSecrets, ...shown } = doc;
  const graceEnds = previousSecrets.map((p) => p.expiresAt).filter((d) => d > now);
  return create(WebhookEndpointSchema, {
    ...messageFields(shown),
    id: doc._id,
    events: doc.events.map((name) => enumValue(WebhookEvent, name)),
    disabledReason: enumValue(EndpointDisabledReason, doc.disabledReason),
    previousSecretExpiresAt: graceEnds.length ? timestampFromDate(new Date(Math.max(...graceEnds.map(Number)))) : undefined,
  });
}

function deliveryToProto(doc: DeliveryDoc): WebhookDelivery {
  return create(WebhookDeliverySchema, {
    ...messageFields(doc),
    id: doc._id,
    event: enumValue(WebhookEvent, doc.event),
    status: enumValue(WebhookDeliveryStatus, doc.status),
    nextAttemptAt: doc.status === 'PENDING' ? time(doc.nextAttemptAt) : undefined,
  });
}

const attemptToProto = (doc: DeliveryAttemptDoc): WebhookDeliveryAttempt => create(WebhookDeliveryAttemptSchema, messageFields(doc));

/** Proto enum values → public names; an unknown number is the caller's mistake. */
function eventNames(values: WebhookEvent[]): string[] {
  return values.map((value) => {
    const name = enumName(WebhookEvent, value);
    if (!name) throw invalidArgument(`unknown webhook event ${value}`, { field: 'events' });
    return name;
  });
}

/**
 * The webhook service at its edge: proto ⇄ domain. Every call acts for the
 * app of its request (tenantOf). `wake` hands a delivery that became due
 * (a retry, a test event) to the dispatcher, so it goes out now rather than
 * at the next poll.
 */
export function webhookService(endpoints: Endpoints, deliveries: Deliveries, wake: (delivery: Pick<DeliveryDoc, '_id' | 'endpointId'>) => void): RpcService {
  return rpcService(WebhookService, webhookRpc(endpoints, deliveries, wake), { tenant: { unscoped: {} } });
}

function webhookRpc(
  endpoints: Endpoints,
  deliveries: Deliveries,
  wake: (delivery: Pick<DeliveryDoc, '_id' | 'endpointId'>) => void,
): ServiceImpl<typeof WebhookService> {
  return {
    async createEndpoint(req, ctx) {
      const { endpoint, secret } = await endpoints.create(tenantOf(ctx), {
        url: requiredField(req.url, 'url'),
        events: eventNames(req.events),
        description: req.description,
      }, req.operationKey);
      return { endpoint: endpointToProto(endpoint), secret };
    },

    async getEndpoint(req, ctx) {
      return { endpoint: endpointToProto(await endpoints.get(tenantOf(ctx), req.endpointId)) };
    },

    async listEndpoints(req, ctx) {
      const page = await endpoints.list(tenantOf(ctx), pageFromRequest(req.page));
      return {
        endpoints: page.items.map((doc) => endpointToProto(doc)),
        page: pageReply(page),
      };
    },

    async updateEndpoint(req, ctx) {
      const endpoint = await endpoints.update(tenantOf(ctx), req.endpointId, {
        url: req.url,
        events: req.replaceEvents ? eventNames(req.events) : undefined,
        description: req.clearDescription ? null : req.description,
        enabled: req.enabled,
      });
      return { endpoint: endpointToProto(endpoint) };
    },

    async deleteEndpoint(req, ctx) {
      const appId = tenantOf(ctx);
      await endpoints.delete(appId, req.endpointId);
      await deliveries.removeForEndpoint(appId, req.endpointId);
      return {};
    },

    async rotateEndpointSecret(req, ctx) {
      const { endpoint, secret } = await endpoints.rotateSecret(tenantOf(ctx), req.endpointId, req.operationKey);
      return { endpoint: endpointToProto(endpoint), secret };
    },

    async listDeliveries(req, ctx) {
      const appId = tenantOf(ctx);
      await endpoints.get(appId, req.endpointId);
      const status = enumName(WebhookDeliveryStatus, req.status) as DeliveryStatusName | undefined;
      const page = await deliveries.list(appId, req.endpointId, pageFromRequest(req.page), status);
      return {
        deliveries: page.items.map(deliveryToProto),
        page: pageReply(page),
      };
    },

    async getDelivery(req, ctx) {
      const appId = tenantOf(ctx);
      const delivery = await deliveries.get(appId, req.endpointId, req.deliveryId);
      const attempts = await deliveries.attemptLog(delivery);
      return { delivery: deliveryToProto(delivery), payloadJson: delivery.payload, attempts: attempts.map(attemptToProto) };
    },

    async retryDelivery(req, ctx) {
      const appId = tenantOf(ctx);
      const endpoint = await endpoints.get(appId, req.endpointId);
      const delivery = await deliveries.retry(appId, endpoint, req.deliveryId);
      wake(delivery);
      return { delivery: deliveryToProto(delivery) };
    },

    async sendTestEvent(req, ctx) {
      const appId = tenantOf(ctx);
      const endpoint = await endpoints.get(appId, req.endpointId);
      const delivery = await deliveries.createTest(appId, endpoint, req.operationKey);
      wake(delivery);
      return { delivery: deliveryToProto(delivery) };
    },
  };
}
