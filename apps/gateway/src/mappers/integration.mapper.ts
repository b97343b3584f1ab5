import { StripeEventStatus, type StripeEvent as StripeEventMessage, type StripeIntegration as StripeIntegrationMessage } from '@ris/contracts';
import { timestamp } from '../openapi/common-schemas';
import { z } from '../openapi/zod';
import { entity, publicEnum, time } from './entity';

export const StripeEventStatuses = publicEnum(StripeEventStatus);

/** An integration as answered: the service's message and the public URL of its endpoint, which only the gateway knows. */
export type StripeIntegrationView = StripeIntegrationMessage & { endpointUrl: string };

/** An app's Stripe integration (docs/api.md#stripe); never its webhook secret. */
export const StripeIntegration = entity<StripeIntegrationView>()('StripeIntegration', {
  id: z.string().openapi({ description: 'Names the public endpoint Stripe posts to; kept when the app connects again' }),
  campaignId: z.string().openapi({ description: 'The campaign whose referral codes its checkouts convert through' }),
  endpointUrl: z.string().openapi({
    format: 'uri',
    description: 'Where Stripe posts the events: the URL of the webhook endpoint to add in your Stripe account (on the gateway\'s PUBLIC_URL)',
  }),
  connectedAt: time(timestamp),
  updatedAt: time(timestamp.openapi({ description: 'When the webhook secret or the campaign last changed' })),
});

/** One event Stripe sent, and what it became. */
export const StripeEventRecord = entity<StripeEventMessage>()('StripeEvent', {
  id: z.string().openapi({ description: "Stripe's event id (evt_…)" }),
  type: z.string().openapi({ description: 'The Stripe event type, e.g. checkout.session.completed' }),
  status: StripeEventStatuses.field((s) =>
    s.openapi({
      description:
        'MATCHED: it made or found a conversion, purchase or reversal (or linked a payment to one); UNMATCHED: it names nothing of the app ' +
        '(an unknown referral code, or what it waited for did not come within 72 hours); IGNORED: nothing to do (a type not mapped, a checkout ' +
        'without a code, nothing paid or newly refunded); WAITING: it came before the checkout or invoice it needs and is applied when that ' +
        'arrives; REFUSED: a rule of the program refused it (`reasonCode`); RECEIVED: being applied, or cut short by a passing failure (Stripe retries it)',
    }),
  ),
  conversionId: z.string().nullable().openapi({ description: 'The conversion it made or belongs to' }),
  purchaseId: z.string().nullable().openapi({ description: 'The purchase it made or belongs to' }),
  reversalId: z.string().nullable().openapi({ description: 'The reversal it made (a refund or a dispute)' }),
  reasonCode: z.string().openapi({ description: 'Why it has its status, stable (CONVERSION_RECORDED, UNKNOWN_REFERRAL_CODE, WAITING_FOR_CUSTOMER, ALREADY_CONVERTED…)' }),
  reason: z.string().openapi({ description: 'The same, in one sentence for people' }),
  livemode: z.boolean().openapi({ description: "Stripe's live mode (false: a test-mode event)" }),
  createdAt: time(timestamp.openapi({ description: 'When Stripe created the event' })),
  receivedAt: time(timestamp.openapi({ description: 'When it first reached the service (a retry of Stripe\'s keeps it)' })),
});

export const stripeIntegrationJson = StripeIntegration.json;
export const stripeEventJson = StripeEventRecord.json;
