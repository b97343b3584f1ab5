import type { AuditEntry } from '../../api/types';
import { countOf, formatAmounts, formatMoney, formatSums } from '../../ui/format';

/** The value at a path (`flag.status`) of an entry's before or after. */
function valueAt(snapshot: AuditEntry['before'], path: string): unknown {
  return path.split('.').reduce<unknown>((at, part) => (typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[part] : undefined), snapshot);
}

/** A text field of an entry's before or after, when it is there. */
function text(snapshot: AuditEntry['before'], path: string): string | undefined {
  const value = valueAt(snapshot, path);
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

/** A yes/no field the change turned (`webhook.enabled`): its new value, or undefined when the change left it as it was. */
function turned(entry: AuditEntry, path: string): boolean | undefined {
  const before = valueAt(entry.before, path);
  const after = valueAt(entry.after, path);
  return typeof after === 'boolean' && typeof before === 'boolean' && before !== after ? after : undefined;
}

/** `: <what>` after a verb, when the entry says what; nothing otherwise. */
const naming = (...candidates: Array<string | undefined>) => {
  const what = candidates.find((c) => c !== undefined && c !== '');
  return what === undefined ? '' : `: ${what}`;
};

/** Quoted, as names are in sentences. */
const quoted = (name: string | undefined) => (name === undefined ? undefined : `“${name}”`);

const targetId = (e: AuditEntry) => e.target?.id;

const CAMPAIGN_VERBS: Record<string, string> = { PAUSED: 'Paused', ACTIVE: 'Resumed', ENDED: 'Ended' };

/**
 * How each audited action reads, in the past tense, from what the entry
 * already holds: its route, its target and the resource before and after
 * (`Resolved a fraud flag: REJECTED`). Keyed by `<METHOD> <path template>`.
 */
const SENTENCES: Record<string, (e: AuditEntry) => string> = {
  'POST /console/v1/apps': (e) => `Created an app${naming(quoted(text(e.after, 'app.name')))}`,
  // A member added at once (`member`), or invited by a link (`invitation`).
  'POST /console/v1/apps/{appId}/members': (e) => {
    const role = text(e.after, 'member.role') ?? text(e.after, 'invitation.role');
    return `Invited a member${naming(text(e.after, 'member.email'), text(e.after, 'invitation.email'))}${role ? ` as ${role}` : ''}`;
  },
  'POST /console/v1/apps/{appId}/invitations/{invitationId}/resend': (e) => `Sent a new invitation link${naming(text(e.after, 'invitation.email'))}`,
  'DELETE /console/v1/apps/{appId}/invitations/{invitationId}': (e) => `Revoked an invitation${naming(text(e.before, 'invitation.email'), targetId(e))}`,
  'POST /console/v1/invitations/{token}/accept': (e) => `Accepted an invitation${text(e.after, 'member.role') ? ` as ${text(e.after, 'member.role')}` : ''}`,
  'PATCH /console/v1/apps/{appId}/members/{operatorId}': (e) => `Changed a member's role${naming(text(e.after, 'member.email'))}${text(e.after, 'member.role') ? ` to ${text(e.after, 'member.role')}` : ''}`,
  'DELETE /console/v1/apps/{appId}/members/{operatorId}': (e) => `Removed a member${naming(text(e.before, 'member.email'), targetId(e))}`,
  'POST /console/v1/apps/{appId}/keys': (e) => `Issued an API key${naming(quoted(text(e.after, 'key.name')), text(e.after, 'key.prefix') && `${text(e.after, 'key.prefix')}…`)}`,
  'DELETE /console/v1/apps/{appId}/keys/{keyId}': (e) => `Revoked an API key${naming(targetId(e))}`,
  'POST /api/v1/campaigns': (e) => `Created campaign${naming(quoted(text(e.after, 'campaign.name')))}`,
  'PATCH /api/v1/campaigns/{campaignId}': (e) => {
    const status = text(e.after, 'campaign.status');
    const verb = status !== text(e.before, 'campaign.status') && status ? CAMPAIGN_VERBS[status] : undefined;
    return `${verb ?? 'Updated'} campaign${naming(quoted(text(e.after, 'campaign.name')))}`;
  },
  'POST /api/v1/referrals': (e) => `Created a referral code${naming(text(e.after, 'referralCode'))}`,
  'POST /api/v1/clicks': (e) => `Recorded a click${naming(text(e.after, 'referralCode'))}`,
  'POST /api/v1/conversions': (e) => `Recorded a conversion${naming(text(e.after, 'refereeId'))}`,
  'POST /api/v1/conversions/{conversionId}/reversals': (e) => {
    const amount = valueAt(e.after, 'reversal.amount');
    const currency = text(e.after, 'reversal.currency');
    const money = typeof amount === 'number' && currency ? formatMoney(amount, currency) : undefined;
    const reason = text(e.after, 'reversal.reason')?.toLowerCase();
    const full = valueAt(e.after, 'reversal.full') === true ? ' in full' : '';
    return `Reversed ${text(e.after, 'reversal.purchaseId') ? 'a purchase' : 'a conversion'}${full}${naming(money && reason ? `${money} (${reason})` : money)}`;
  },
  'POST /api/v1/rewards/{rewardId}/claim': (e) => `Claimed a reward's code${naming(targetId(e))}`,
  'POST /api/v1/rewards/redeem': (e) => `Marked a reward fulfilled${naming(text(e.after, 'reward.id'))}`,
  'POST /api/v1/payouts': (e) => {
    const made = valueAt(e.after, 'payouts');
    return Array.isArray(made) ? (made.length === 0 ? 'Made no payouts: nothing was due' : `Made ${countOf(made.length, 'payouts')}${naming(moneyOf(made as Money[]))}`) : 'Made payouts';
  },
  'POST /api/v1/payouts/{payoutId}/paid': (e) => `Marked a payout paid${naming(payoutNaming(e))}${text(e.after, 'payout.externalReference') ? ` (${text(e.after, 'payout.externalReference')})` : ''}`,
  'POST /api/v1/payouts/{payoutId}/failed': (e) => `Marked a payout failed${naming(payoutNaming(e))}${text(e.after, 'payout.failureReason') ? ` (${text(e.after, 'payout.failureReason')})` : ''}`,
  'PUT /api/v1/integrations/stripe': (e) => `Connected Stripe${naming(text(e.after, 'integration.campaignId') && `campaign ${text(e.after, 'integration.campaignId')}`)}`,
  'DELETE /api/v1/integrations/stripe': () => 'Disconnected Stripe',
  'POST /api/v1/fraud/flags/{flagId}/resolve': (e) => `Resolved a fraud flag${naming(text(e.after, 'flag.status'))}`,
  'POST /api/v1/incentives/actions': (e) => `Defined action${naming(quoted(text(e.after, 'action.name')))}`,
  'PATCH /api/v1/incentives/actions/{key}': (e) => `${onOff(turned(e, 'action.enabled'), 'Enabled', 'Disabled')} action${naming(quoted(text(e.after, 'action.name')))}`,
  'POST /api/v1/incentives/events': (e) => `Recorded an event${naming(text(e.after, 'event.actionKey'))}${text(e.after, 'event.userId') ? ` for ${text(e.after, 'event.userId')}` : ''}`,
  'POST /api/v1/incentives/events/bulk': () => 'Recorded events in bulk',
  'POST /api/v1/incentives/balances/{userId}/adjustments': (e) => {
    const t = (e.after as { transaction?: { coins?: unknown; xp?: unknown; tokens?: unknown } } | null)?.transaction;
    const amounts = t && [t.coins, t.xp, t.tokens].every((n) => typeof n === 'number') ? formatAmounts(t as { coins: number; xp: number; tokens: number }, { signed: true }) : undefined;
    return `Adjusted a balance${naming(text(e.after, 'balance.userId'))}${amounts ? ` (${amounts})` : ''}`;
  },
  'POST /api/v1/incentives/levels': (e) => `Added level${naming(text(e.after, 'level.level'))}${text(e.after, 'level.name') ? ` ${quoted(text(e.after, 'level.name'))}` : ''}`,
  'PATCH /api/v1/incentives/levels/{level}': (e) => `Updated level${naming(targetId(e))}`,
  'DELETE /api/v1/incentives/levels/{level}': (e) => `Removed level${naming(targetId(e))}`,
  'POST /api/v1/incentives/badges': (e) => `Defined badge${naming(quoted(text(e.after, 'badge.name')))}`,
  'PATCH /api/v1/incentives/badges/{key}': (e) => `Updated badge${naming(quoted(text(e.after, 'badge.name')))}`,
  'POST /api/v1/incentives/badges/{key}/award': (e) => `Awarded badge${naming(quoted(text(e.after, 'badge.name')))}${text(e.after, 'badge.userId') ? ` to ${text(e.after, 'badge.userId')}` : ''}`,
  'POST /api/v1/incentives/milestones/definitions': (e) => `Defined milestone${naming(quoted(text(e.after, 'milestone.name')))}`,
  'PATCH /api/v1/incentives/milestones/definitions/{key}': (e) => `Updated milestone${naming(quoted(text(e.after, 'milestone.name')))}`,
  'DELETE /api/v1/incentives/milestones/definitions/{key}': (e) => `Removed milestone${naming(targetId(e))}`,
  'POST /api/v1/incentives/leaderboard': (e) => `Recorded a leaderboard score${naming(text(e.after, 'userId'))}`,
  'POST /api/v1/incentives/leaderboard/refresh': () => 'Rebuilt the leaderboards',
  'POST /api/v1/incentives/leaderboard/refresh-runs': () => 'Started a rebuild of the leaderboards',
  'POST /api/v1/webhooks': (e) => `Added webhook endpoint${naming(text(e.after, 'webhook.url'))}`,
  'PATCH /api/v1/webhooks/{webhookId}': (e) => `${onOff(turned(e, 'webhook.enabled'), 'Enabled', 'Disabled')} webhook endpoint${naming(text(e.after, 'webhook.url'))}`,
  'DELETE /api/v1/webhooks/{webhookId}': (e) => `Deleted webhook endpoint${naming(text(e.before, 'webhook.url'), targetId(e))}`,
  'POST /api/v1/webhooks/{webhookId}/secret/rotate': (e) => `Rotated the signing secret of webhook endpoint${naming(text(e.after, 'webhook.url'))}`,
  'POST /api/v1/webhooks/{webhookId}/deliveries/{deliveryId}/retry': (e) => `Sent a webhook delivery again${naming(text(e.after, 'delivery.event'))}`,
  'POST /api/v1/webhooks/{webhookId}/test': () => 'Sent a test event (WEBHOOK_TEST)',
  'POST /api/v1/incentives/catalog': (e) => `Created catalog item${naming(quoted(text(e.after, 'item.name')))}`,
  'PATCH /api/v1/incentives/catalog/{itemId}': (e) => `${onOff(turned(e, 'item.published'), 'Published', 'Unpublished')} catalog item${naming(quoted(text(e.after, 'item.name')))}`,
  'DELETE /api/v1/incentives/catalog/{itemId}': (e) => `Deleted catalog item${naming(quoted(text(e.before, 'item.name')), targetId(e))}`,
  'POST /api/v1/incentives/redeem': (e) => `Redeemed a catalog item${naming(quoted(text(e.after, 'redemption.itemName')))}${text(e.after, 'redemption.userId') ? ` for ${text(e.after, 'redemption.userId')}` : ''}`,
  'PATCH /api/v1/incentives/redemptions/{redemptionId}': (e) => `${redemptionVerb(text(e.after, 'redemption.status'))} a redemption${naming(quoted(text(e.after, 'redemption.itemName')))}`,
  'POST /api/v1/incentives/marketplace/listings': (e) => `Offered listing${naming(quoted(text(e.after, 'listing.title')))}`,
  'PATCH /api/v1/incentives/marketplace/listings/{listingId}': (e) => `${onOff(turned(e, 'listing.published'), 'Published', 'Paused')} listing${naming(quoted(text(e.after, 'listing.title')))}`,
  'DELETE /api/v1/incentives/marketplace/listings/{listingId}': (e) => `Withdrew listing${naming(quoted(text(e.before, 'listing.title')), targetId(e))}`,
  'POST /api/v1/incentives/marketplace/redeem': (e) => `Redeemed a marketplace listing${naming(text(e.after, 'redemption.listingId'))}`,
  'POST /api/v1/embed-tokens': () => "Made a token for a user's referral widget",
};

type Money = { amount?: unknown; currency?: unknown };

/** What payouts sent, summed per currency (`$35.05 + €12.00`); undefined when the entry does not say. */
function moneyOf(items: Money[]): string | undefined {
  const amounts = items.filter((m): m is { amount: number; currency: string } => typeof m.amount === 'number' && typeof m.currency === 'string');
  return amounts.length === items.length && amounts.length > 0 ? formatSums(amounts) : undefined;
}

/** A payout in an entry: `$35.05 to ana`. */
function payoutNaming(e: AuditEntry): string | undefined {
  const payout = valueAt(e.after, 'payout') as (Money & { userId?: unknown }) | undefined;
  const money = payout ? moneyOf([payout]) : undefined;
  const userId = text(e.after, 'payout.userId');
  return money && userId ? `${money} to ${userId}` : (money ?? targetId(e));
}

/** The verb of a yes/no switched by the change, or "Updated" when the change was something else. */
function onOff(now: boolean | undefined, on: string, off: string): string {
  return now === undefined ? 'Updated' : now ? on : off;
}

function redemptionVerb(status: string | undefined): string {
  return status === 'FULFILLED' ? 'Fulfilled' : status === 'CANCELLED' ? 'Cancelled' : 'Updated';
}

/**
 * One audit entry as a sentence a person reads (`Invited a member:
 * ann@example.com as VIEWER`); an action this dashboard does not know yet
 * reads as its route's summary. The raw route stays on the entry (`action`).
 */
export function auditSentence(entry: AuditEntry): string {
  return SENTENCES[entry.action]?.(entry) ?? entry.summary;
}
