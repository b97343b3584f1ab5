import type { DomainEvent } from '@ris/events';
import type { Participants } from './participants';

/** The incentive engine's events the directory follows (one durable consumer). */
export const INCENTIVE_ACTIVITY = 'incentive.event.processed';

/**
 * An event the incentive engine recorded makes its user a participant the
 * engine has seen, active then. Both are set (engaged, the latest activity),
 * so a redelivered event changes nothing: no processed-id record is needed.
 */
export function incentiveActivityHandler(participants: Participants) {
  return async (event: DomainEvent): Promise<void> => {
    const userId = (event.data as { userId?: unknown }).userId;
    if (typeof userId !== 'string' || !userId) return;
    await participants.engaged(event.appId, userId, new Date(event.occurredAt));
  };
}
