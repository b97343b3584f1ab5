import type { WebhookEvent } from '../../api/types';

/** Every event an endpoint can subscribe to, grouped as the event catalogue groups them. */
export const WEBHOOK_EVENT_GROUPS: { group: string; items: WebhookEvent[] }[] = [
  { group: 'Referrals', items: ['REFERRAL_CREATED', 'REFERRAL_CLICKED', 'CONVERSION_CREATED', 'CONVERSION_FLAGGED', 'CONVERSION_REVERSED'] },
  { group: 'Rewards', items: ['REWARD_CREATED', 'REWARD_APPROVED', 'REWARD_CLAIMED', 'REWARD_REDEEMED', 'REWARD_CANCELLED', 'REWARD_REDUCED', 'REWARD_CLAWBACK'] },
  { group: 'Payouts', items: ['PAYOUT_CREATED', 'PAYOUT_PAID', 'PAYOUT_FAILED'] },
  { group: 'Incentives', items: ['INCENTIVE_EVENT_PROCESSED', 'LEVEL_UP', 'BADGE_AWARDED', 'MILESTONE_REACHED', 'STREAK_EXTENDED', 'STREAK_FROZEN', 'STREAK_ENDED'] },
  { group: 'Catalog and marketplace', items: ['REDEMPTION_CREATED', 'REDEMPTION_FULFILLED', 'REDEMPTION_CANCELLED', 'MARKETPLACE_REDEEMED'] },
  { group: 'Endpoints', items: ['WEBHOOK_ENDPOINT_DISABLED'] },
];

// Each event is shown as the API and the delivered payloads spell it (`REFERRAL_CREATED`), so what an
// operator picks here is what their receiver reads in `event`.
export const EVENT_SELECT_DATA = WEBHOOK_EVENT_GROUPS.map((g) => ({ group: g.group, items: [...g.items] }));

/** An endpoint's subscriptions in words (empty: every event). */
export function subscriptionText(events: WebhookEvent[]): string {
  return events.length === 0 ? 'every event' : `${events.length} event${events.length === 1 ? '' : 's'}`;
}
