import {
  EndpointDisabledReason,
  WebhookDeliveryStatus,
  WebhookEvent,
  enumNames,
  type EnumName,
  type WebhookDelivery,
  type WebhookDeliveryAttempt,
  type WebhookEndpoint,
} from '@ris/contracts';
import { timestamp } from '../openapi/common-schemas';
import { z } from '../openapi/zod';
import { entity, from, publicEnum, time } from './entity';

type EventName = EnumName<typeof WebhookEvent>;

/** Every public event name, from the contract's enum. */
export const WebhookEvents = publicEnum(WebhookEvent);
/** What an endpoint can subscribe to (WEBHOOK_TEST only comes from POST /webhooks/{id}/test). */
export const SubscribableEvents = publicEnum(WebhookEvent, enumNames(WebhookEvent).filter((name) => name !== 'WEBHOOK_TEST') as [EventName, ...EventName[]]);
export const WebhookDeliveryStatuses = publicEnum(WebhookDeliveryStatus);
const DisabledReasons = publicEnum(EndpointDisabledReason);

export const Webhook = entity<WebhookEndpoint>()('Webhook', {
  id: z.string(),
  url: z.string(),
  events: from(z.array(SubscribableEvents.schema).openapi({ description: 'Empty: every event.' }), (w: WebhookEndpoint) =>
    w.events.map((e) => SubscribableEvents.name(e)).filter((name) => name !== null),
  ),
  description: z.string().nullable(),
  enabled: z.boolean(),
  disabledReason: DisabledReasons.field((s) =>
    s.nullable().openapi({ description: 'MANUAL: through PATCH; FAILING: by the service after 3 days of failures. null while enabled.' }),
  ),
  disabledAt: time(timestamp.nullable()),
  failingSince: time(timestamp.nullable().openapi({ description: 'First failed attempt since the last success; null while healthy.' })),
  previousSecretExpiresAt: time(timestamp.nullable().openapi({ description: 'After a rotation, the previous secret also signs until then.' })),
  createdAt: time(timestamp),
  updatedAt: time(timestamp),
});

export const Delivery = entity<WebhookDelivery>()('WebhookDelivery', {
  id: z.string(),
  webhookId: from(z.string(), (d: WebhookDelivery) => d.endpointId),
  messageId: z.string().openapi({ description: "The `webhook-id` header and the body's `id`." }),
  event: WebhookEvents.field(),
  status: WebhookDeliveryStatuses.field(),
  attempts: z.number().int(),
  lastResponseStatus: z.number().int().nullable(),
  lastError: z.string().nullable().openapi({ description: 'Why the last attempt failed when no answer came (timeout, refused…).' }),
  lastAttemptAt: time(timestamp.nullable()),
  nextAttemptAt: time(timestamp.nullable().openapi({ description: 'When the next attempt is due; null unless PENDING.' })),
  createdAt: time(timestamp),
  completedAt: time(timestamp.nullable()),
});

export const DeliveryAttempt = entity<WebhookDeliveryAttempt>()('WebhookDeliveryAttempt', {
  number: z.number().int(),
  startedAt: time(timestamp),
  durationMs: z.number().int(),
  responseStatus: z.number().int().nullable(),
  error: z.string().nullable(),
  responseBody: z.string().openapi({ description: 'The first 2 KiB of the answer.' }),
  responseBodyTruncated: z.boolean(),
});

export const webhookJson = Webhook.json;
export const deliveryJson = Delivery.json;
export const deliveryAttemptJson = DeliveryAttempt.json;
