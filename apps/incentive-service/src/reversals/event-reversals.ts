import { now } from '@ris/config';
import { characterCount } from '@ris/contracts';
import { conflict, invalid, notFound, refused } from '@ris/domain-errors';
import type { Outbox, OutboxCarrier } from '@ris/events';
import { eventEntryKey, reversalEntryKey } from '../events/derived-ids';
import { eventReversed } from '../events/incentive-domain-events';
import type { IncentiveEventRepository } from '../events/incentive-event.repository';
import type { BalanceState } from '../ledger/balance-fold';
import type { Ledger } from '../ledger/ledger';
import type { LedgerEntryDoc } from '../ledger/ledger-entry.model';
import { eventReversalMovement } from './event-reversal-plan';

const MAX_ATTEMPTS = 200;
const MAX_REASON = 500;

export interface EventReversalResult {
  entry: LedgerEntryDoc;
  state: BalanceState;
  replayed: boolean;
}

/**
 * Events taken back by an operator or the app's backend. Once per event,
 * whoever asks (a retry, a conversion reversal of the same credit): the
 * entry's key is reversal:<event id>. Planned against the balance version
 * it is written at, so a redemption racing it spends either before it
 * (less to take back, the rest owed) or after it (less to spend).
 */
export class EventReversals {
  private readonly events: OutboxCarrier;

  constructor(
    private readonly ledger: Ledger,
    private readonly recorded: IncentiveEventRepository,
    outbox: Outbox,
  ) {
    this.events = ledger.entries.carrier(outbox);
  }

  async reverse(appId: string, eventId: string, reason: string | null): Promise<EventReversalResult> {
    const note = reason?.trim() || null;
    if (note && characterCount(note) > MAX_REASON) throw invalid(`reason must be at most ${MAX_REASON} characters`, { field: 'reason' });
    const event = await this.recorded.findById(appId, eventId);
    if (!event) throw notFound('Event', { eventId });
    const reward = await this.ledger.findByKey(appId, eventEntryKey(eventId));
    if (!reward) throw refused('EVENT_NOT_REWARDED', `Event ${eventId} earned nothing: there is nothing to take back.`, { eventId, reason: event.result.reason });
    const userId = reward.userId;
    return this.ledger.serialized(appId, userId, async () => {
      let { state } = await this.ledger.settled(appId, userId);
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
        const earlier = await this.ledger.findByKey(appId, reversalEntryKey(eventId));
        if (earlier) return { entry: earlier, state: (await this.ledger.settled(appId, userId)).state, replayed: true };
        const at = now();
        const movement = eventReversalMovement(reward, state, note, at);
        const carried = this.events.carry([eventReversed(appId, userId, eventId, movement)], at);
        const result = await this.ledger.append(appId, userId, state, [movement], [carried.fields]);
        if (result.entries[0]) carried.written(result.entries[0]);
        if (result.kind === 'applied') return { entry: result.entries[0], state: result.state, replayed: false };
        state = await this.ledger.afterConflict(appId, userId, attempt);
      }
      throw conflict('CONFLICT', 'Too many concurrent changes to this balance; retry.');
    });
  }
}
