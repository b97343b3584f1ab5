import type { FilterQuery } from 'mongoose';
import type { Connection } from 'mongoose';
import { Repository, type Page, type PageQuery } from '@ris/mongo';
import { stripeEventModel, type StripeEventDoc, type StripeEventStatusName } from './stripe-event.model';

const NEWEST_FIRST = { receivedAt: -1, _id: -1 } as const;
/** Enough for any one sale: the renewals, refunds and disputes that came before its checkout. */
const WAKE_BATCH = 100;

/** What an event became: its status, the records it made or found, and why. */
export type StripeEventOutcome = Pick<StripeEventDoc, 'status' | 'reasonCode' | 'reason' | 'conversionId' | 'purchaseId' | 'reversalId'>;

/** The Stripe events received (stripe-event.model.ts): every question asked of them and every write, by name. */
export class StripeEventRepository extends Repository<StripeEventDoc> {
  constructor(db: Connection) {
    super(stripeEventModel(db));
  }

  /** The event's record under `<appId>:<event id>`, or the one there already: Stripe delivered it before. `created` tells which. */
  record(appId: string, event: Omit<StripeEventDoc, 'appId'>): Promise<{ doc: StripeEventDoc; created: boolean }> {
    return this.insertOrGet(appId, event);
  }

  /** Its status and what it became; no longer waiting. The record after. */
  async settle(appId: string, id: string, outcome: StripeEventOutcome, at: Date): Promise<StripeEventDoc | null> {
    return this.collection.findOneAndUpdate(appId, { _id: id }, { $set: { ...outcome, waitingFor: null, waitUntil: null, settledAt: at } });
  }

  /** WAITING for a sale key until `until`. The record after. */
  async wait(appId: string, id: string, wait: { key: string; until: Date; reasonCode: string; reason: string }, at: Date): Promise<StripeEventDoc | null> {
    return this.collection.findOneAndUpdate(
      appId,
      { _id: id },
      {
        $set: {
          status: 'WAITING',
          reasonCode: wait.reasonCode,
          reason: wait.reason,
          waitingFor: wait.key,
          waitUntil: wait.until,
          settledAt: at,
        },
      },
    );
  }

  /** The events still waiting (not past their wait) for a sale key, oldest first: what a new conversion or purchase wakes. */
  waitingOn(appId: string, key: string, now: Date): Promise<StripeEventDoc[]> {
    return this.collection.find(appId, { waitingFor: key, status: 'WAITING', waitUntil: { $gt: now } }, { sort: { receivedAt: 1 }, limit: WAKE_BATCH });
  }

  /**
   * GET /integrations/stripe/events: newest first (ties by id), of one
   * public status or all. A WAITING event past its wait reads UNMATCHED
   * (stripe-event-state.ts), so those two filters look at the clock.
   */
  page(appId: string, status: StripeEventStatusName | null, now: Date, page: PageQuery): Promise<Page<StripeEventDoc>> {
    return this.collection.page(appId, statusFilter(status, now), NEWEST_FIRST, page);
  }
}

function statusFilter(status: StripeEventStatusName | null, now: Date): FilterQuery<StripeEventDoc> {
  if (status === 'WAITING') return { status: 'WAITING', waitUntil: { $gt: now } };
  if (status === 'UNMATCHED') return { $or: [{ status: 'UNMATCHED' }, { status: 'WAITING', waitUntil: { $lte: now } }] };
  return status ? { status } : {};
}
