import { createHash } from 'node:crypto';

/**
 * Ids derived from what a document is about. Two requests racing to create
 * the same thing compute the same _id, so MongoDB's _id index decides the
 * race; lookups by _id are also the cheapest query there is (FerretDB
 * included). 96 bits of SHA-256: collisions are not a practical concern.
 */
function digest(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 24);
}

/** The balance document of a user. */
export const balanceId = (appId: string, userId: string) => `bal_${digest('balance', appId, userId)}`;

/** Slot `seq` of a user's ledger: the _id index lets one entry, and only one, take each slot. */
export const ledgerEntryId = (appId: string, userId: string, seq: number) => `led_${digest('balance', appId, userId)}_${seq}`;

/** An event posted with an idempotencyKey: the same key of the same user is the same event. */
export const keyedEventId = (appId: string, userId: string, idempotencyKey: string) =>
  `evt_${digest('event', appId, userId, idempotencyKey)}`;

/** The idempotency key of the event a referral action fires from a domain event: one per domain event and action. */
export const referralActionKey = (domainEventId: string, actionKey: string) => `domain:${domainEventId}:${actionKey}`;

/** The ledger key of an event's reward: one entry per event. */
export const eventEntryKey = (eventId: string) => `event:${eventId}`;

/** The ledger key of the reversal of an event's reward: taken back once, whatever asks for it. */
export const reversalEntryKey = (eventId: string) => `reversal:${eventId}`;

/** The record of a conversion's reversal (one per conversion: the first full reversal). */
export const conversionReversalId = (appId: string, conversionId: string) => `crv_${digest('conversion-reversal', appId, conversionId)}`;

/** An event of a request with an Idempotency-Key (no idempotencyKey of its own): every try of the request is the same event. */
export const operationEventId = (appId: string, operationKey: string) => `evt_${digest('operation', appId, operationKey)}`;

export const actionId = (appId: string, key: string) => `act_${digest('action', appId, key)}`;
export const badgeId = (appId: string, key: string) => `bdg_${digest('badge', appId, key)}`;
export const userBadgeId = (appId: string, userId: string, badgeKey: string) => `ubg_${digest('user-badge', appId, userId, badgeKey)}`;
export const milestoneId = (appId: string, key: string) => `mst_${digest('milestone', appId, key)}`;
export const reachedMilestoneId = (appId: string, userId: string, key: string) => `rms_${digest('reached', appId, userId, key)}`;
export const streakDefinitionId = (appId: string, key: string) => `stk_${digest('streak', appId, key)}`;
/** A user's engagement document: their time zone and streaks. */
export const engagementUserId = (appId: string, userId: string) => `eng_${digest('engagement', appId, userId)}`;
export const snapshotId = (appId: string, period: string, periodKey: string) => `lbs_${digest('snapshot', appId, period, periodKey)}`;
