import { Schema, type Connection, type Model } from 'mongoose';
import { carriesEvents, type OutboxFields } from '@ris/events';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { Refusal } from '../actions/action-rules';
import type { IncentiveEventRepository } from './incentive-event.repository';
import type { Amounts } from '../ledger/reward-amounts';
import type { LedgerBoost } from '../ledger/balance-fold';
import type { StreakExtensionDoc } from '../streaks/streak-progress';

export type EventSourceName = 'API' | 'REFERRAL';

/** What POST /incentives/events answered, kept so a duplicate gets the same answer. */
export interface EventResultDoc {
  rewarded: Amounts | null;
  reason: Refusal | null;
  balance: Amounts & { level: number };
  levelUp: { from: number; to: number } | null;
  badgesAwarded: Array<{ key: string; name: string }>;
  milestonesReached: Array<{ key: string; name: string; metric: string; threshold: number }>;
  /** Absent on events from before streaks. */
  streaksExtended?: StreakExtensionDoc[];
  /** The boost that multiplied its reward (absent or null: none). */
  boost?: LedgerBoost | null;
  /** Its coins and tokens are pending until then (absent or null: available at once). */
  pendingUntil?: Date | null;
}

/**
 * An event as it was received: the claim keeps it while the event is
 * processed (event-claim.model.ts), the event document for good.
 */
export interface EventInputDoc {
  /** keyedEventId(app, user, idempotencyKey) when a key was sent, else random. */
  _id: string;
  appId: string;
  userId: string;
  actionKey: string;
  idempotencyKey: string | null;
  source: EventSourceName;
  /** The domain event that fired it (referral action types). */
  sourceEventId: string | null;
  /** Caller metadata as JSON text: any keys survive, even ones MongoDB dislikes ("$x", "a.b"). */
  metadataJson: string | null;
  /** The zone the event named for its streaks (absent on events from before: none). */
  timeZone?: string | null;
  /** The boost decided when it was received, so a recovered event is paid the same (absent: none). */
  boost?: LedgerBoost | null;
  /** When the event was received, whoever finishes it. */
  createdAt: Date;
}

export const eventInputFields = {
  _id: { type: String, required: true },
  appId: { type: String, required: true },
  userId: { type: String, required: true },
  actionKey: { type: String, required: true },
  idempotencyKey: { type: String, default: null },
  source: { type: String, required: true },
  sourceEventId: { type: String, default: null },
  metadataJson: { type: String, default: null },
  timeZone: { type: String, default: null },
  boost: { type: new Schema({ id: String, name: String, multiplier: Number }, { _id: false }), default: null },
  createdAt: { type: Date, required: true },
} as const;

/**
 * A processed event. Written once, when processing is complete (insert
 * only, but for the events it carries until they are published: the
 * ledger holds the balance effects, the claim guards the work in progress).
 */
export interface IncentiveEventDoc extends EventInputDoc, OutboxFields {
  result: EventResultDoc;
  /** Repeats answered from this document (absent: none yet, or written before they were counted). */
  duplicates?: number;
}

const eventSchema = new Schema<IncentiveEventDoc>(
  {
    ...eventInputFields,
    result: { type: Schema.Types.Mixed, required: true },
    duplicates: { type: Number },
  },
  { collection: 'events', versionKey: false, minimize: false },
);
declareIndexes<QueryNames<IncentiveEventRepository>>(eventSchema, [
  { keys: { appId: 1, createdAt: -1 }, serves: ['page'], why: "GET /incentives/events: an app's events newest first, optionally from/to" },
  { keys: { appId: 1, userId: 1, createdAt: -1 }, serves: ['page'], why: 'GET /incentives/events?userId=…' },
  { keys: { appId: 1, actionKey: 1, createdAt: -1 }, serves: ['page'], why: 'GET /incentives/events?actionKey=…' },
]);
// The idempotencyKey rule is enforced by the _id index: a keyed event's _id
// is derived from (app, user, key), so a second one cannot be stored.

// incentive.event.processed: the events of one write of event documents wait on one of them, until published.
carriesEvents(eventSchema);

export const incentiveEventModel = (db: Connection): Model<IncentiveEventDoc> =>
  (db.models.IncentiveEvent as Model<IncentiveEventDoc> | undefined) ?? db.model<IncentiveEventDoc>('IncentiveEvent', eventSchema);
