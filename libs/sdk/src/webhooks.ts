import { Webhook, WebhookVerificationError } from 'standardwebhooks';

/** A webhook delivery's body, once verified (docs/events.md lists the events and their data). */
export interface WebhookEvent<D = Record<string, unknown>> {
  /** The delivery's id, also in `webhook-id`: dedupe on it (a delivery may arrive more than once). */
  id: string;
  /** e.g. REFERRAL_CREATED, CONVERSION_CREATED, REWARD_CREATED. */
  event: string;
  createdAt: string;
  data: D;
}

export { WebhookVerificationError };

/**
 * Verifies a webhook delivery the Standard Webhooks way (HMAC-SHA256 of
 * `webhook-id.webhook-timestamp.body` under the endpoint's `whsec_` secret,
 * a timestamp within 5 minutes) and returns its parsed body; throws
 * WebhookVerificationError otherwise. `body` must be the raw text as
 * received (not re-serialised JSON); `headers` the request's headers.
 */
export function verifyWebhook<D = Record<string, unknown>>(
  body: string | Uint8Array,
  headers: Headers | Record<string, string | string[] | undefined>,
  secret: string,
): WebhookEvent<D> {
  const flat: Record<string, string> = {};
  if (typeof (headers as Headers).forEach === 'function' && typeof (headers as Headers).get === 'function') {
    (headers as Headers).forEach((value, name) => (flat[name.toLowerCase()] = value));
  } else {
    for (const [name, value] of Object.entries(headers)) {
      if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
  }
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  return new Webhook(secret).verify(text, flat) as WebhookEvent<D>;
}
