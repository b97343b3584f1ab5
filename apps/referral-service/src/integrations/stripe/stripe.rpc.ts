import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { ServiceImpl } from '@connectrpc/connect';
import {
  StripeEventSchema,
  StripeEventStatus,
  StripeIntegrationSchema,
  enumName,
  enumValue,
  type ReferralService,
  type StripeEvent,
  type StripeIntegration,
} from '@ris/contracts';
import { invalidArgument, pageFromRequest, pageReply, requiredField, tenantOf } from '@ris/rpc';
import { stripeEventState } from './stripe-event-state';
import type { StripeEventDoc, StripeEventStatusName } from './stripe-event.model';
import type { StripeEvents } from './stripe-events';
import type { StripeIntegrationDoc } from './stripe-integration.model';
import type { StripeIntegrations } from './stripe-integrations';

/** Longer than any secret Stripe issues (whsec_ and 32 to 64 characters); the gateway states the exact rule. */
const MAX_SECRET_LENGTH = 256;

const integrationMessage = (doc: StripeIntegrationDoc): StripeIntegration =>
  create(StripeIntegrationSchema, {
    id: doc._id,
    campaignId: doc.campaignId,
    connectedAt: timestampFromDate(doc.connectedAt),
    updatedAt: timestampFromDate(doc.updatedAt),
  });

/** An event as the contract shows it, its status as it reads now (a WAITING one past its wait reads UNMATCHED). */
const eventMessage = (doc: StripeEventDoc, now: Date): StripeEvent => {
  const state = stripeEventState(doc, now);
  return create(StripeEventSchema, {
    id: doc.stripeEventId,
    type: doc.type,
    status: enumValue(StripeEventStatus, state.status),
    conversionId: doc.conversionId ?? undefined,
    purchaseId: doc.purchaseId ?? undefined,
    reversalId: doc.reversalId ?? undefined,
    reasonCode: state.reasonCode,
    reason: state.reason,
    livemode: doc.livemode,
    createdAt: timestampFromDate(doc.createdAt),
    receivedAt: timestampFromDate(doc.receivedAt),
  });
};

type StripeCalls = Pick<ServiceImpl<typeof ReferralService>, 'connectStripe' | 'getStripeIntegration' | 'disconnectStripe' | 'receiveStripeEvent' | 'listStripeEvents'>;

/** The Stripe integration at the edge: connected, read and disconnected by its app; its events received (unscoped) and listed. */
export function stripeCalls(integrations: StripeIntegrations, events: StripeEvents): StripeCalls {
  return {
    async connectStripe(req, ctx) {
      const webhookSecret = requiredField(req.webhookSecret, 'webhookSecret');
      if (webhookSecret.length > MAX_SECRET_LENGTH) throw invalidArgument(`webhookSecret must be at most ${MAX_SECRET_LENGTH} characters`);
      const { integration, created } = await integrations.connect(tenantOf(ctx), { webhookSecret, campaignId: requiredField(req.campaignId, 'campaignId') });
      return { integration: integrationMessage(integration), created };
    },

    async getStripeIntegration(_req, ctx) {
      const integration = await integrations.get(tenantOf(ctx));
      return { integration: integration ? integrationMessage(integration) : undefined };
    },

    async disconnectStripe(_req, ctx) {
      await integrations.disconnect(tenantOf(ctx));
      return {};
    },

    async receiveStripeEvent(req) {
      const received = await events.receive(requiredField(req.integrationId, 'integrationId'), req.payload, req.signature);
      return { event: eventMessage(received.event, new Date()), duplicate: received.duplicate };
    },

    async listStripeEvents(req, ctx) {
      const status = (enumName(StripeEventStatus, req.status) ?? null) as StripeEventStatusName | null;
      const now = new Date();
      const page = await events.list(tenantOf(ctx), status, pageFromRequest(req.page));
      return { events: page.items.map((doc) => eventMessage(doc, now)), page: pageReply(page) };
    },
  };
}
