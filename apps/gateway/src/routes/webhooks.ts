import type { ApiRouter } from '../http/api-router';
import {
  Delivery,
  DeliveryAttempt,
  SubscribableEvents,
  Webhook,
  WebhookDeliveryStatuses,
  WebhookEvents,
  deliveryAttemptJson,
  deliveryJson,
  webhookJson,
} from '../mappers/webhook.mapper';
import { Pagination, id, pageQuery, pageRequest, pagination } from '../openapi/common-schemas';
import { freeText, httpUrl } from '../openapi/text-fields';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';

const DELIVERY_RULES = [
  '**Events.** Each event of your app is POSTed to every enabled endpoint subscribed to it (`events` empty or absent: all),',
  'as `{"id", "event", "createdAt", "data"}`. An endpoint receives the events that happen after it was created.',
  '`REFERRAL_CREATED` data carries the referral (`referralId`, `referralCode`, `campaignId`, `referrerId`, `refereeId`, `level`,',
  '`isFlagged`, `reasons`, `riskScore` and `warning`, both null unless flagged); `REWARD_CREATED` carries `rewardId`, `referralId`,',
  '`conversionId`, `userId`, `amount`, `fulfillmentType`, `status`…; `REWARD_CLAIMED` carries `rewardId`, `userId`, `discountCode`,',
  '`expiresAt`. `MARKETPLACE_REDEEMED` also goes to the app that owns the listing. `WEBHOOK_ENDPOINT_DISABLED` tells your other',
  'endpoints that one was disabled.',
  '',
  '**Signatures** follow [Standard Webhooks](https://www.standardwebhooks.com): headers `webhook-id` (the message id, equal to',
  'the body\'s `id` and the same on every retry: use it to drop duplicates), `webhook-timestamp` (unix seconds of the attempt)',
  'and `webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{raw body}">`, keyed with the base64-decoded part of',
  'the secret after `whsec_`. Verify with any `standardwebhooks` library. For 24 h after a rotation two signatures are sent,',
  'space-separated: one per secret.',
  '',
  '**Retries.** An attempt succeeds when your endpoint answers 2xx within 10 s; redirects are not followed. Otherwise it is',
  'retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 20 h (each ±20 % jitter): 10 attempts over about 3 days,',
  'then the delivery is `FAILED`. (These are the defaults; a deployment sets them with WEBHOOK_TIMEOUT_MS and',
  'WEBHOOK_RETRY_SCHEDULE.) Delivery is at least once and not ordered: drop repeats by `webhook-id`, order by `createdAt`.',
  'An endpoint whose deliveries fail without a single success for 3 days is disabled (`disabledReason: FAILING`);',
  're-enable it with `PATCH {"enabled": true}` and retry what it missed.',
  '',
  '**URLs** must be `http` or `https` with a host name or IPv4 address, without credentials (the `url` pattern; 400',
  'otherwise). A host that does not resolve is refused with 422 `UNRESOLVABLE_HOST`; hosts resolving to private, loopback,',
  'link-local, unspecified, multicast or reserved addresses (IPv4 or IPv6, IPv4-mapped included) with 422 `PRIVATE_TARGET`',
  'unless the deployment allows private targets; the check is repeated before every attempt, on the address then connected to.',
].join('\n');

const EventName = SubscribableEvents.schema;
const WebhookUrl = httpUrl(2048).openapi({ example: 'https://example.com/webhooks/referrals' });
const Events = z
  .array(EventName)
  .max(WebhookEvents.names.length)
  .openapi({ description: 'Event names to receive; empty or absent: every event.' });
const Description = freeText(500).trim();

const Secret = z.string().openapi({
  description: 'Signing secret, `whsec_` + base64 of 32 random bytes. Shown only in this response: store it now.',
  example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
});

const DeliveryDetail = Delivery.schema.extend({
  payload: z.record(z.string(), z.unknown()).openapi({ description: 'The body sent: {id, event, createdAt, data}.' }),
  attemptLog: z.array(DeliveryAttempt.schema).openapi({ description: 'Every attempt, oldest first.' }),
}).openapi('WebhookDeliveryDetail');

const WebhookEnvelope = z.object({ webhook: Webhook.schema });
const DeliveryEnvelope = z.object({ delivery: Delivery.schema });
const webhookParams = z.object({ webhookId: id('Webhook endpoint id') });
const webhookFromBody = { webhookId: '$response.body#/webhook/id' };
const deliveryFromBody = { webhookId: '$response.body#/delivery/webhookId', deliveryId: '$response.body#/delivery/id' };
const deliveryParams = z.object({ webhookId: id('Webhook endpoint id'), deliveryId: id('Delivery id') });

const eventValues = (names: Array<(typeof SubscribableEvents.names)[number]>) => names.map((name) => SubscribableEvents.value(name));

/** /webhooks: endpoints, their deliveries and retries (docs/api.md#webhooks). */
export function webhookRoutes(api: ApiRouter, clients: ServiceClients): void {
  api.route({
    method: 'post',
    path: '/webhooks',
    role: 'OWNER',
    tag: 'Webhooks',
    summary: 'Register a webhook endpoint',
    description: `The answer carries the signing \`secret\`, shown only this once.\n\n${DELIVERY_RULES}`,
    body: z
      .object({ url: WebhookUrl, events: Events.optional(), description: Description.optional() })
      .openapi('CreateWebhookRequest'),
    responses: {
      201: {
        description: 'Registered',
        schema: z.object({ webhook: Webhook.schema, secret: Secret }).openapi('CreateWebhookResponse'),
        links: {
          GetWebhook: { method: 'get', path: '/webhooks/:webhookId', parameters: webhookFromBody },
          UpdateWebhook: { method: 'patch', path: '/webhooks/:webhookId', parameters: webhookFromBody },
          DeleteWebhook: { method: 'delete', path: '/webhooks/:webhookId', parameters: webhookFromBody },
          RotateSecret: { method: 'post', path: '/webhooks/:webhookId/secret/rotate', parameters: webhookFromBody },
          ListDeliveries: { method: 'get', path: '/webhooks/:webhookId/deliveries', parameters: webhookFromBody },
          SendTestEvent: { method: 'post', path: '/webhooks/:webhookId/test', parameters: webhookFromBody },
        },
      },
    },
    errors: [422],
    handle: async ({ appId, body, operationKey }) => {
      const res = await clients.webhook.createEndpoint({
        appId,
        operationKey,
        url: body.url,
        events: eventValues(body.events ?? []),
        description: body.description,
      });
      return { status: 201, body: { webhook: webhookJson(res.endpoint!), secret: res.secret } };
    },
  });

  api.route({
    method: 'get',
    path: '/webhooks',
    tag: 'Webhooks',
    summary: 'List webhook endpoints, newest first',
    query: z.object({ ...pageQuery }),
    responses: {
      200: { description: 'A page of endpoints', schema: z.object({ webhooks: z.array(Webhook.schema), pagination: Pagination }) },
    },
    handle: async ({ appId, query }) => {
      const res = await clients.webhook.listEndpoints({ appId, page: pageRequest(query) });
      return {
        status: 200,
        body: {
          webhooks: res.endpoints.map(webhookJson),
          pagination: pagination(query, res.page),
        },
      };
    },
  });

  api.route({
    method: 'get',
    path: '/webhooks/:webhookId',
    tag: 'Webhooks',
    summary: 'Get a webhook endpoint (never its secret)',
    params: webhookParams,
    responses: { 200: { description: 'The endpoint', schema: WebhookEnvelope } },
    errors: [404],
    handle: async ({ appId, params }) => {
      const { endpoint } = await clients.webhook.getEndpoint({ appId, endpointId: params.webhookId });
      return { status: 200, body: { webhook: webhookJson(endpoint!) } };
    },
  });

  api.route({
    method: 'patch',
    path: '/webhooks/:webhookId',
    role: 'OWNER',
    tag: 'Webhooks',
    summary: 'Update a webhook endpoint, or disable / re-enable it',
    description:
      'Only the fields sent change. `events` replaces the list (empty: every event); `description: null` removes it. ' +
      '`enabled: false` stops deliveries (PENDING ones then fail); `enabled: true` re-enables an endpoint, also one the ' +
      'service disabled, and forgets its failure streak. Deliveries it missed can be sent again with the retry operation.',
    params: webhookParams,
    body: z
      .object({
        url: WebhookUrl.optional(),
        events: Events.optional(),
        description: Description.nullable().optional(),
        enabled: z.boolean().optional(),
      })
      .openapi('UpdateWebhookRequest'),
    responses: { 200: { description: 'The updated endpoint', schema: WebhookEnvelope } },
    errors: [404, 422],
    handle: async ({ appId, params, body }) => {
      const { endpoint } = await clients.webhook.updateEndpoint({
        appId,
        endpointId: params.webhookId,
        url: body.url,
        events: eventValues(body.events ?? []),
        replaceEvents: body.events !== undefined,
        description: body.description ?? undefined,
        clearDescription: body.description === null,
        enabled: body.enabled,
      });
      return { status: 200, body: { webhook: webhookJson(endpoint!) } };
    },
  });

  api.route({
    method: 'delete',
    path: '/webhooks/:webhookId',
    role: 'OWNER',
    tag: 'Webhooks',
    summary: 'Delete a webhook endpoint and its delivery log',
    params: webhookParams,
    responses: { 204: { description: 'Deleted' } },
    errors: [404],
    handle: async ({ appId, params }) => {
      await clients.webhook.deleteEndpoint({ appId, endpointId: params.webhookId });
      return { status: 204 };
    },
  });

  api.route({
    method: 'post',
    path: '/webhooks/:webhookId/secret/rotate',
    role: 'OWNER',
    tag: 'Webhooks',
    summary: 'Rotate the signing secret',
    description:
      'Returns a new secret, shown only this once. For the next 24 h (until `previousSecretExpiresAt`) every request is ' +
      'signed with both the new and the previous secret (two space-separated `v1,` signatures), so receivers can switch ' +
      'without rejecting a delivery.',
    params: webhookParams,
    responses: {
      200: { description: 'Rotated', schema: z.object({ webhook: Webhook.schema, secret: Secret }).openapi('RotateWebhookSecretResponse') },
    },
    errors: [404],
    handle: async ({ appId, params, operationKey }) => {
      const res = await clients.webhook.rotateEndpointSecret({ appId, endpointId: params.webhookId, operationKey });
      return { status: 200, body: { webhook: webhookJson(res.endpoint!), secret: res.secret } };
    },
  });

  api.route({
    method: 'get',
    path: '/webhooks/:webhookId/deliveries',
    tag: 'Webhooks',
    summary: "List an endpoint's deliveries, newest first",
    params: webhookParams,
    query: z.object({ ...pageQuery, status: WebhookDeliveryStatuses.schema.optional() }),
    responses: {
      200: { description: 'A page of deliveries', schema: z.object({ deliveries: z.array(Delivery.schema), pagination: Pagination }) },
    },
    errors: [404],
    handle: async ({ appId, params, query }) => {
      const res = await clients.webhook.listDeliveries({
        appId,
        endpointId: params.webhookId,
        page: pageRequest(query),
        status: WebhookDeliveryStatuses.value(query.status),
      });
      return {
        status: 200,
        body: {
          deliveries: res.deliveries.map(deliveryJson),
          pagination: pagination(query, res.page),
        },
      };
    },
  });

  api.route({
    method: 'get',
    path: '/webhooks/:webhookId/deliveries/:deliveryId',
    tag: 'Webhooks',
    summary: 'Get a delivery with its body and every attempt',
    params: deliveryParams,
    responses: { 200: { description: 'The delivery', schema: z.object({ delivery: DeliveryDetail }) } },
    errors: [404],
    handle: async ({ appId, params }) => {
      const res = await clients.webhook.getDelivery({ appId, endpointId: params.webhookId, deliveryId: params.deliveryId });
      return {
        status: 200,
        body: {
          delivery: {
            ...deliveryJson(res.delivery!),
            payload: JSON.parse(res.payloadJson) as Record<string, unknown>,
            attemptLog: res.attempts.map(deliveryAttemptJson),
          },
        },
      };
    },
  });

  api.route({
    method: 'post',
    path: '/webhooks/:webhookId/deliveries/:deliveryId/retry',
    role: 'OWNER',
    tag: 'Webhooks',
    summary: 'Send a delivery again now',
    description:
      'A PENDING delivery is attempted now and keeps its remaining retries; a SUCCEEDED or FAILED one gets one more ' +
      'attempt (same `webhook-id`). 409 CONFLICT while an attempt of it is in flight, or when the endpoint is disabled ' +
      '(test events excepted).',
    params: deliveryParams,
    responses: { 202: { description: 'Queued for an attempt now', schema: DeliveryEnvelope } },
    errors: [404, 409],
    handle: async ({ appId, params }) => {
      const { delivery } = await clients.webhook.retryDelivery({ appId, endpointId: params.webhookId, deliveryId: params.deliveryId });
      return { status: 202, body: { delivery: deliveryJson(delivery!) } };
    },
  });

  api.route({
    method: 'post',
    path: '/webhooks/:webhookId/test',
    role: 'OWNER',
    tag: 'Webhooks',
    summary: 'Send a WEBHOOK_TEST event to this endpoint',
    description:
      'Queues a signed `WEBHOOK_TEST` delivery (`data: {webhookId, message}`) to this endpoint only, whatever it subscribes ' +
      'to and even while it is disabled, so a receiver can be checked before re-enabling it. It is retried like any delivery.',
    params: webhookParams,
    responses: {
      202: {
        description: 'Queued',
        schema: DeliveryEnvelope,
        links: {
          GetDelivery: { method: 'get', path: '/webhooks/:webhookId/deliveries/:deliveryId', parameters: deliveryFromBody },
          RetryDelivery: { method: 'post', path: '/webhooks/:webhookId/deliveries/:deliveryId/retry', parameters: deliveryFromBody },
        },
      },
    },
    errors: [404],
    handle: async ({ appId, params, operationKey }) => {
      const { delivery } = await clients.webhook.sendTestEvent({ appId, endpointId: params.webhookId, operationKey });
      return { status: 202, body: { delivery: deliveryJson(delivery!) } };
    },
  });
}
