import {
  EndpointDisabledReason,
  WebhookDeliveryStatus,
  WebhookEvent,
  enumName,
  type WebhookDelivery,
  type WebhookDeliveryAttempt,
  type WebhookEndpoint,
} from '@ris/contracts';
import { isoTime } from './proto-json';

export function webhookJson(w: WebhookEndpoint) {
  return {
    id: w.id,
    url: w.url,
    events: w.events.map((e) => enumName(WebhookEvent, e)).filter((name): name is string => name !== undefined),
    description: w.description ?? null,
    enabled: w.enabled,
    disabledReason: enumName(EndpointDisabledReason, w.disabledReason) ?? null,
    disabledAt: isoTime(w.disabledAt),
    failingSince: isoTime(w.failingSince),
    previousSecretExpiresAt: isoTime(w.previousSecretExpiresAt),
    createdAt: isoTime(w.createdAt),
    updatedAt: isoTime(w.updatedAt),
  };
}

export function deliveryJson(d: WebhookDelivery) {
  return {
    id: d.id,
    webhookId: d.endpointId,
    messageId: d.messageId,
    event: enumName(WebhookEvent, d.event) ?? null,
    status: enumName(WebhookDeliveryStatus, d.status) ?? null,
    attempts: d.attempts,
    lastResponseStatus: d.lastResponseStatus ?? null,
    lastError: d.lastError ?? null,
    lastAttemptAt: isoTime(d.lastAttemptAt),
    nextAttemptAt: isoTime(d.nextAttemptAt),
    createdAt: isoTime(d.createdAt),
    completedAt: isoTime(d.completedAt),
  };
}

export function deliveryAttemptJson(a: WebhookDeliveryAttempt) {
  return {
    number: a.number,
    startedAt: isoTime(a.startedAt),
    durationMs: a.durationMs,
    responseStatus: a.responseStatus ?? null,
    error: a.error ?? null,
    responseBody: a.responseBody,
    responseBodyTruncated: a.responseBodyTruncated,
  };
}
