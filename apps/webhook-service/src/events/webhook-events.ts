import { WebhookEvent } from '@ris/contracts';
import type { DomainEvent } from '@ris/events';

/** Public event names: the member names of the contract's WebhookEvent enum. */
export type WebhookEventName = Exclude<keyof typeof WebhookEvent, 'UNSPECIFIED'>;

/**
 * The catalogue of docs/events.md: which domain event becomes which webhook
 * event. Domain types missing here are not sent to webhooks.
 */
export const WEBHOOK_EVENT_OF_DOMAIN_TYPE: Readonly<Record<string, WebhookEventName>> = {
  'referral.created': 'REFERRAL_CREATED',
  'referral.clicked': 'REFERRAL_CLICKED',
  'conversion.created': 'CONVERSION_CREATED',
  'conversion.flagged': 'CONVERSION_FLAGGED',
  'conversion.reversed': 'CONVERSION_REVERSED',
  'reward.created': 'REWARD_CREATED',
  'reward.approved': 'REWARD_APPROVED',
  'reward.claimed': 'REWARD_CLAIMED',
  'reward.redeemed': 'REWARD_REDEEMED',
  'reward.cancelled': 'REWARD_CANCELLED',
  'reward.reduced': 'REWARD_REDUCED',
  'reward.clawback': 'REWARD_CLAWBACK',
  'payout.created': 'PAYOUT_CREATED',
  'payout.paid': 'PAYOUT_PAID',
  'payout.failed': 'PAYOUT_FAILED',
  'incentive.event.processed': 'INCENTIVE_EVENT_PROCESSED',
  'incentive.level_up': 'LEVEL_UP',
  'incentive.badge_awarded': 'BADGE_AWARDED',
  'incentive.milestone_reached': 'MILESTONE_REACHED',
  'incentive.streak_extended': 'STREAK_EXTENDED',
  'incentive.streak_frozen': 'STREAK_FROZEN',
  'incentive.streak_ended': 'STREAK_ENDED',
  'incentive.coins_expired': 'COINS_EXPIRED',
  'incentive.event_reversed': 'EVENT_REVERSED',
  'redemption.created': 'REDEMPTION_CREATED',
  'redemption.fulfilled': 'REDEMPTION_FULFILLED',
  'redemption.cancelled': 'REDEMPTION_CANCELLED',
  'marketplace.redeemed': 'MARKETPLACE_REDEEMED',
  // Published by this service (endpoint-health.ts) to tell the app's other endpoints.
  'webhook.endpoint_disabled': 'WEBHOOK_ENDPOINT_DISABLED',
};

export const WEBHOOK_DOMAIN_TYPES = Object.keys(WEBHOOK_EVENT_OF_DOMAIN_TYPE);

export const ENDPOINT_DISABLED_EVENT_TYPE = 'webhook.endpoint_disabled';

/**
 * Fields promised from the start for the first three events
 * (docs/product-decisions.md §9.2): always present in the body, null when the
 * publisher had no value (REFERRAL_CREATED's riskScore and warning are null
 * unless the referral was flagged).
 */
const PROMISED_FIELDS: Partial<Record<WebhookEventName, string[]>> = {
  REFERRAL_CREATED: ['riskScore', 'warning'],
  REWARD_CREATED: ['referralId', 'userId', 'amount'],
  REWARD_CLAIMED: ['discountCode', 'userId'],
};

export const isSubscribable = (name: string): name is WebhookEventName =>
  Object.hasOwn(WebhookEvent, name) && name !== 'UNSPECIFIED' && name !== 'WEBHOOK_TEST' && Number.isNaN(Number(name));

/** The webhook-id of an event: derived from the domain event id, so every endpoint and attempt shares it. */
export const messageIdOf = (eventId: string): string => `msg_${eventId.replace(/-/g, '')}`;

/** The apps whose endpoints receive an event: its own, and for a marketplace redemption the listing owner's. */
export function recipientApps(event: DomainEvent): string[] {
  const apps = [event.appId];
  const owner = (event.data as { listingAppId?: unknown }).listingAppId;
  if (event.type === 'marketplace.redeemed' && typeof owner === 'string' && owner && owner !== event.appId) apps.push(owner);
  return apps;
}

/** The exact JSON body sent and signed: {id, event, createdAt, data}. */
export function webhookBody(messageId: string, event: WebhookEventName, createdAt: string, data: Record<string, unknown>): string {
  const promised = Object.fromEntries((PROMISED_FIELDS[event] ?? []).map((field) => [field, data[field] ?? null]));
  return JSON.stringify({ id: messageId, event, createdAt, data: { ...data, ...promised } });
}
