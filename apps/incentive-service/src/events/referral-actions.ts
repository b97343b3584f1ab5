import type { JsonObject } from '@bufbuild/protobuf';
import type { DomainEvent } from '@ris/events';
import type { Logger } from '@ris/logging';
import { isDomainError } from '@ris/domain-errors';
import type { ActionTypeName } from '../actions/action-types';
import type { Actions } from '../actions/actions';
import type { ReferralCreditReversals } from '../reversals/referral-credit-reversals';
import { referralActionKey } from './derived-ids';
import type { EventRecorder } from './record-events';

/** Which referral event fires which action type (docs/product-decisions.md §7.10). */
export const REFERRAL_TRIGGERS: Record<string, ActionTypeName> = {
  'referral.created': 'REFERRAL_CODE_GENERATE',
  'referral.clicked': 'REFERRAL_CLICK',
  'conversion.created': 'REFERRAL_REFEREE_ACTION',
};

interface ReferralEventData {
  referrerId?: unknown;
  referralId?: unknown;
  referralCode?: unknown;
  campaignId?: unknown;
  refereeId?: unknown;
  level?: unknown;
  clickId?: unknown;
  conversionId?: unknown;
  isFlagged?: unknown;
}

const text = (value: unknown) => (typeof value === 'string' && value ? value : null);

/**
 * The referral action types, fired from the referral service's events
 * without any API call: the referrer earns the reward of every action of
 * the matching type. Exactly once per referral event and action, even when
 * the event is delivered twice: the incentive event's idempotency key is
 * derived from the domain event id (and the action key).
 */
export function referralActionHandler(actions: Actions, recorder: EventRecorder, reversals: Pick<ReferralCreditReversals, 'afterCredit'>, logger: Logger) {
  return async (event: DomainEvent): Promise<void> => {
    const type = REFERRAL_TRIGGERS[event.type];
    if (!type) return;
    const data = event.data as ReferralEventData;
    // Only the direct referrer earns on a conversion; higher levels of the chain do not.
    if (event.type === 'conversion.created' && data.level !== 1) return;
    const referrerId = text(data.referrerId);
    if (!referrerId) {
      logger.warn({ eventId: event.id, type: event.type }, 'referral event without referrerId; no action fired');
      return;
    }
    const fired = await actions.ofType(event.appId, type);
    if (fired.length === 0) return;
    const metadata: JsonObject = {
      sourceEvent: event.type,
      referralId: text(data.referralId),
      referralCode: text(data.referralCode),
      campaignId: text(data.campaignId),
      refereeId: text(data.refereeId),
    };
    if (text(data.clickId)) metadata.clickId = text(data.clickId);
    if (text(data.conversionId)) metadata.conversionId = text(data.conversionId);
    if (typeof data.isFlagged === 'boolean') metadata.isFlagged = data.isFlagged;
    const outcomes = await recorder.record(
      event.appId,
      fired.map((action) => ({
        userId: referrerId,
        actionKey: action.key,
        idempotencyKey: referralActionKey(event.id, action.key),
        metadata,
        source: 'REFERRAL' as const,
        sourceEventId: event.id,
      })),
    );
    for (const outcome of outcomes) {
      // Retry later (nak) unless the event itself is bad, which a retry cannot fix.
      if (outcome instanceof Error) {
        logger.warn({ err: outcome, eventId: event.id }, 'referral action could not be recorded');
        if (!isDomainError(outcome) || (outcome.kind !== 'invalid' && outcome.kind !== 'not-found')) throw outcome;
      }
    }
    // A reversal of this conversion handled before its credit was written (another consumer) takes it back now (§7.16).
    const conversionId = text(data.conversionId);
    if (event.type === 'conversion.created' && conversionId) await reversals.afterCredit(event.appId, conversionId);
  };
}
