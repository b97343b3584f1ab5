import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import express, { type Request, type RequestHandler } from 'express';
import type { StripeIntegration as StripeIntegrationMessage } from '@ris/contracts';
import { publicOrigin } from '../hosted-links/link-url';
import { ApiError, validationError } from '../http/api-error';
import { ApiRouter } from '../http/api-router';
import { bodyProblem } from '../http/json-body';
import { methodGuard } from '../http/method-not-allowed';
import { StripeEventRecord, StripeEventStatuses, StripeIntegration, stripeEventJson, stripeIntegrationJson } from '../mappers/integration.mapper';
import { Pagination, id, pageQuery, pageRequest, pagination } from '../openapi/common-schemas';
import { identifier } from '../openapi/text-fields';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';

/** The public endpoint Stripe posts to (no API key: the signature authenticates it), under /api/v1 like the rest of the integration. */
export const STRIPE_EVENTS_BASE = '/api/v1/integrations/stripe/events';

const TAG = 'Integrations';
const BODY_LIMIT = '1mb';
/** Several v1 signatures while a secret rolls over are a few hundred characters; far more is not Stripe's. */
const MAX_SIGNATURE_LENGTH = 2000;
const WEBHOOK_SECRET_PATTERN = '^whsec_[A-Za-z0-9+/=_-]{1,250}$';

const MAPPING = [
  '**What becomes what** (docs/api.md#stripe):',
  '',
  '- `checkout.session.completed` (paid) and `checkout.session.async_payment_succeeded` with a referral code of the campaign in',
  '  `metadata.referralCode` or `client_reference_id` → a conversion: referee `metadata.refereeId`, else the Stripe customer id;',
  '  amount `amount_total` in major units of its currency (upper-cased). One conversion per checkout session.',
  '- `invoice.paid` of a subscription whose customer converted → a purchase of that conversion (`externalId` = the invoice id);',
  "  the checkout's own first invoice (the session's `invoice`, or `billing_reason: subscription_create` of the checkout's",
  '  subscription) is the conversion\'s sale, counted once. `invoice_payment.paid` links an invoice\'s payment to its sale.',
  '- `charge.refunded` → a REFUND reversal of what the charge\'s refunded total adds (all that is left once it is refunded whole);',
  '  `charge.dispute.created` → a CHARGEBACK reversal; each of the conversion or purchase the charge paid for.',
  '- Every other type: 200, IGNORED. An unknown referral code: 200, UNMATCHED. An event that needs a checkout or invoice not',
  '  received yet waits for it (WAITING, up to 72 hours) and is applied when it arrives.',
].join('\n');

const StripeIntegrationState = z
  .object({
    connected: z.boolean().openapi({ description: 'Whether the app is connected: a webhook secret is set' }),
    integration: z.union([StripeIntegration.schema, z.null()]).openapi({ description: 'null when not connected' }),
  })
  .openapi('StripeIntegrationState');

const integrationFromBody = { integrationId: '$response.body#/integration/id' };
const integrationLinks = {
  GetStripeIntegration: { method: 'get', path: '/integrations/stripe' },
  ListStripeEvents: { method: 'get', path: '/integrations/stripe/events' },
  DisconnectStripe: { method: 'delete', path: '/integrations/stripe' },
  ReceiveStripeEvent: { method: 'post', path: '/:integrationId', basePath: STRIPE_EVENTS_BASE, parameters: integrationFromBody },
} as const;

/** Bodies of the public endpoint, kept as received: the signature is over these exact bytes, which a re-serialised parse would change. */
const rawBodies = new WeakMap<IncomingMessage, Buffer>();
const readRaw = express.raw({ type: () => true, limit: BODY_LIMIT });

/**
 * The body of a Stripe event: read as raw bytes (at most 1 MiB, JSON only)
 * and kept for the signature; parsed besides, only to check it against the
 * document's schema. The API's JSON parser (http/json-body.ts) would hand
 * the route a value, from which the signed bytes cannot be rebuilt.
 */
const stripeEventBody: RequestHandler = (req, res, next) => {
  if (req.method !== 'POST') return next();
  const length = Number(req.header('content-length') ?? '0');
  if (length === 0 && req.header('transfer-encoding') === undefined) return next();
  if (!req.is('application/json')) {
    return next(new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the request body as JSON with Content-Type: application/json.'));
  }
  readRaw(req, res, (err?: unknown) => {
    if (err) return next(err);
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    rawBodies.set(req, raw);
    if (!isUtf8(raw)) return next(validationError('body: must be UTF-8 (its bytes are not valid UTF-8)', { issues: [{ field: 'body', message: 'is not valid UTF-8' }] }));
    try {
      req.body = JSON.parse(raw.toString('utf8'));
    } catch {
      return next(validationError('Request body is not valid JSON.'));
    }
    const problem = bodyProblem(req.body);
    next(problem ? validationError(`${problem.field}: ${problem.message}`, { issues: [problem] }) : undefined);
  });
};

/** The Stripe-Signature header, which the operation requires. */
function signatureOf(req: Request): string {
  const signature = req.header('stripe-signature');
  const problem = !signature ? 'is required' : signature.length > MAX_SIGNATURE_LENGTH ? `must be at most ${MAX_SIGNATURE_LENGTH} characters` : null;
  if (problem) throw validationError(`header.Stripe-Signature: ${problem}`, { issues: [{ field: 'header.Stripe-Signature', message: problem }] });
  return signature!;
}

/** What Stripe posts: an event (only what the service reads is stated; Stripe's other fields are taken as they come). */
const StripeEventPayload = z
  .object({
    id: identifier("Stripe's event id (evt_…)", 255),
    type: identifier('The event type, e.g. checkout.session.completed', 255),
    data: z.object({ object: z.record(z.string(), z.unknown()).openapi({ description: 'The Stripe object the event is about' }) }),
  })
  .openapi('StripeEventPayload', { description: 'A Stripe event as Stripe sends it (its other fields are read as they come)' });

/**
 * /integrations/stripe: an app connects its Stripe account's webhooks, and
 * reads what Stripe's events became (docs/api.md#stripe). `publicUrl` is
 * PUBLIC_URL, the origin the endpoint URL is built on.
 */
export function integrationRoutes(api: ApiRouter, clients: ServiceClients, publicUrl: string | undefined): void {
  const state = (req: Request, integration: StripeIntegrationMessage | undefined) => ({
    connected: integration !== undefined,
    integration: integration
      ? stripeIntegrationJson({ ...integration, endpointUrl: `${publicOrigin(req, publicUrl)}${STRIPE_EVENTS_BASE}/${encodeURIComponent(integration.id)}` })
      : null,
  });

  api.route({
    method: 'put',
    path: '/integrations/stripe',
    role: 'OWNER',
    tag: TAG,
    summary: "Connect the app's Stripe account (its webhook endpoint's secret and the campaign)",
    description:
      'Stores the signing secret of a webhook endpoint of your Stripe account (Developers → Webhooks: add an endpoint whose URL is ' +
      'the `endpointUrl` answered here, with the event types below) sealed at rest; it is never answered again. Connecting again ' +
      'replaces the secret and the campaign and keeps the integration\'s id, so the endpoint URL stays (201 the first time, 200 after).' +
      `\n\n${MAPPING}`,
    body: z
      .object({
        webhookSecret: z
          .string()
          .regex(new RegExp(WEBHOOK_SECRET_PATTERN), 'must be a Stripe webhook signing secret: whsec_ and 1 to 250 letters, digits, +, /, =, _ or -')
          .openapi({ description: "The endpoint's signing secret in Stripe (whsec_…)", pattern: WEBHOOK_SECRET_PATTERN, minLength: 7, maxLength: 256, example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }),
        campaignId: id('The campaign whose referral codes its checkouts convert through'),
      })
      .openapi('ConnectStripeRequest'),
    responses: {
      201: { description: 'Connected', schema: StripeIntegrationState, links: integrationLinks },
      200: { description: 'Was connected: its secret and campaign replaced', schema: StripeIntegrationState, links: integrationLinks },
    },
    errors: [404],
    handle: async ({ appId, body, req }) => {
      const res = await clients.referral.connectStripe({ appId, webhookSecret: body.webhookSecret, campaignId: body.campaignId });
      return { status: res.created ? 201 : 200, body: state(req, res.integration!) };
    },
  });

  api.route({
    method: 'get',
    path: '/integrations/stripe',
    tag: TAG,
    summary: 'Whether the app is connected to Stripe, and its endpoint URL',
    description: 'Never the webhook secret. Not connected: `{"connected": false, "integration": null}`.',
    responses: { 200: { description: 'The integration, or none', schema: StripeIntegrationState } },
    handle: async ({ appId, req }) => {
      const res = await clients.referral.getStripeIntegration({ appId });
      return { status: 200, body: state(req, res.integration) };
    },
  });

  api.route({
    method: 'delete',
    path: '/integrations/stripe',
    role: 'OWNER',
    tag: TAG,
    summary: 'Disconnect Stripe',
    description:
      'Forgets the webhook secret: events posted to the endpoint are then 404 (Stripe retries them, then disables the endpoint). ' +
      'The events received so far stay listed. Connecting again makes a new endpoint URL.',
    responses: { 204: { description: 'Disconnected' } },
    errors: [404],
    handle: async ({ appId }) => {
      await clients.referral.disconnectStripe({ appId });
      return { status: 204 };
    },
  });

  api.route({
    method: 'get',
    path: '/integrations/stripe/events',
    tag: TAG,
    summary: 'List the Stripe events received and what each became, newest first',
    query: z.object({ ...pageQuery, status: StripeEventStatuses.schema.optional() }),
    responses: {
      200: { description: 'A page of events', schema: z.object({ events: z.array(StripeEventRecord.schema), pagination: Pagination }) },
    },
    handle: async ({ appId, query }) => {
      const res = await clients.referral.listStripeEvents({ appId, status: StripeEventStatuses.value(query.status), page: pageRequest(query) });
      return { status: 200, body: { events: res.events.map(stripeEventJson), pagination: pagination(query, res.page) } };
    },
  });
}

/**
 * POST /api/v1/integrations/stripe/events/{integrationId}: where Stripe
 * posts. No API key: the `Stripe-Signature` header, checked by the
 * referral service with the integration's secret over the exact bytes,
 * is the credential. A router of its own, documented in `registry`, to be
 * mounted at STRIPE_EVENTS_BASE before the API's key check and JSON parser:
 * its method check, its body reader (stripeEventBody), its route.
 */
export function stripeEventsEndpoint(registry: OpenAPIRegistry, clients: ServiceClients): RequestHandler[] {
  const events = new ApiRouter(registry, { basePath: STRIPE_EVENTS_BASE, security: 'none' });
  events.route({
    method: 'post',
    path: '/:integrationId',
    tag: TAG,
    summary: 'Receive a Stripe event (the endpoint Stripe posts to)',
    description:
      'Needs no API key: send the `Stripe-Signature` header Stripe sets (`t=<unix seconds>,v1=<hex HMAC-SHA256>…`, at most 2000 characters), checked over the ' +
      "exact body with the integration's webhook secret, its timestamp within 300 s of now. Without the header: 400 VALIDATION_ERROR " +
      '(`header.Stripe-Signature`); a malformed, wrong or stale signature: 400 `STRIPE_SIGNATURE_INVALID` (`details.why`: ' +
      'MALFORMED_HEADER, NO_MATCHING_SIGNATURE, STALE_TIMESTAMP); either way nothing is stored. An unknown integration is 404. A verified event is recorded once per event id and answered 200 whatever it became (`event.status`): ' +
      'the same event again changes nothing (`duplicate: true`). 409, 503 and 429 (each integration has a rate limit of its own, the ' +
      "app's RATE_LIMIT_PER_SECOND and burst) are passing failures: Stripe retries them, and the " +
      `retry finishes the event.\n\n${MAPPING}`,
    params: z.object({ integrationId: id('The integration (`integration.id` of GET /integrations/stripe)') }),
    body: StripeEventPayload,
    responses: {
      200: {
        description: 'Received (whatever it became)',
        schema: z
          .object({
            event: StripeEventRecord.schema,
            duplicate: z.boolean().openapi({ description: 'Stripe delivered it before: nothing changed' }),
          })
          .openapi('ReceiveStripeEventResponse'),
      },
    },
    errors: [404, 409, 413, 415],
    handle: async ({ params, req }) => {
      const signature = signatureOf(req);
      const res = await clients.referral.receiveStripeEvent({ integrationId: params.integrationId, payload: rawBodies.get(req) ?? new Uint8Array(), signature });
      return { status: 200, body: { event: stripeEventJson(res.event!), duplicate: res.duplicate } };
    },
  });
  return [methodGuard(events), stripeEventBody, events.router];
}
