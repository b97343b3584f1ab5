import { Schema, type Connection, type Model } from 'mongoose';
import type { EnumName, WebhookDeliveryStatus } from '@ris/contracts';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { WebhookEventName } from '../events/webhook-events';
import { attemptResultFields, type AttemptResult } from './delivery-attempt.model';
import type { DeliveryRepository } from './delivery.repository';

/** PENDING, SUCCEEDED or FAILED: the names of the contract's WebhookDeliveryStatus. */
export type DeliveryStatusName = EnumName<typeof WebhookDeliveryStatus>;

/**
 * A first attempt made before its delivery was stored (a fan-out's,
 * PendingInsert), kept inside the delivery: one row where the attempt log
 * would add a second. Later attempts go to the attempt log.
 */
export type FirstAttempt = AttemptResult & { _id: string };

/** One event on its way to one endpoint, with its retry state. */
export interface DeliveryDoc {
  _id: string;
  appId: string;
  endpointId: string;
  /** The domain event it carries (test events: test:<uuid>); unique per endpoint. */
  eventId: string;
  /** webhook-id and the body's id: the same for every attempt. */
  messageId: string;
  event: WebhookEventName;
  /** The exact JSON body, fixed at creation so every attempt sends (and signs) the same bytes. */
  payload: string;
  status: DeliveryStatusName;
  attempts: number;
  /** Index into the retry schedule of the next retry. */
  retryIndex: number;
  /** False after a manual retry of a finished delivery: that one attempt is all. */
  autoRetry: boolean;
  /** When it is due; null once SUCCEEDED or FAILED. */
  nextAttemptAt: Date | null;
  /** A dispatcher holds it until then (epoch: nobody). */
  leaseUntil: Date;
  /** Token of the claim holding the lease: only its holder may record the outcome. */
  lease: string | null;
  /**
   * PENDING and given to no dispatcher (no lease): what the due query asks
   * for by equality, which FerretDB v1 pushes down to an index, so it reads
   * only these and not every pending delivery (a backlog held under leases
   * is most of them). A lease that runs out (its holder died) leaves it
   * false: the sweep finds those (DeliveryRepository.dueAfterLeases).
   */
  claimable: boolean;
  lastAttemptAt: Date | null;
  lastResponseStatus: number | null;
  lastError: string | null;
  createdAt: Date;
  completedAt: Date | null;
  /** The trace of the event it delivers (W3C traceparent), when tracing is on: its attempts continue it. */
  traceparent?: string;
  firstAttempt?: FirstAttempt;
}

const firstAttemptSchema = new Schema<FirstAttempt>({ _id: { type: String, required: true }, ...attemptResultFields }, { _id: false });

const deliverySchema = new Schema<DeliveryDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    endpointId: { type: String, required: true },
    eventId: { type: String, required: true },
    messageId: { type: String, required: true },
    event: { type: String, required: true },
    payload: { type: String, required: true },
    status: { type: String, required: true },
    attempts: { type: Number, default: 0 },
    retryIndex: { type: Number, default: 0 },
    autoRetry: { type: Boolean, default: true },
    nextAttemptAt: { type: Date, default: null },
    leaseUntil: { type: Date, required: true },
    lease: { type: String, default: null },
    claimable: { type: Boolean, default: false },
    lastAttemptAt: { type: Date, default: null },
    lastResponseStatus: { type: Number, default: null },
    lastError: { type: String, default: null },
    createdAt: { type: Date, required: true },
    completedAt: { type: Date, default: null },
    traceparent: { type: String, default: undefined },
    firstAttempt: { type: firstAttemptSchema, default: undefined },
  },
  { collection: 'webhook_deliveries', versionKey: false },
);
declareIndexes<QueryNames<DeliveryRepository>>(deliverySchema, [
  {
    keys: { endpointId: 1, eventId: 1 },
    options: { unique: true },
    serves: ['queue'],
    why: 'one delivery per endpoint and event: a redelivered or replayed event cannot create a second one (the fan-out inserts and ignores duplicates)',
  },
  {
    keys: { claimable: 1, nextAttemptAt: 1 },
    serves: ['due'],
    why: "the dispatcher's query: due deliveries nobody holds, oldest due first (across apps); on FerretDB the equality on claimable is what reaches the index",
  },
  {
    keys: { status: 1, nextAttemptAt: 1 },
    serves: ['dueAfterLeases', 'pendingCount', 'oldestPendingDue'],
    why: "the dispatcher's sweep: due PENDING deliveries whose lease ran out (across apps); the queue's metrics",
  },
  {
    keys: { appId: 1, endpointId: 1, createdAt: -1, _id: -1 },
    serves: ['list', 'removeForEndpoint'],
    why: "GET /webhooks/{id}/deliveries, newest first; removing an endpoint's deliveries",
  },
  { keys: { appId: 1, endpointId: 1, status: 1, createdAt: -1, _id: -1 }, serves: ['list'], why: 'the same list filtered by status' },
  { keys: { completedAt: 1 }, serves: ['removeFinishedBefore'], why: 'retention: finished deliveries older than WEBHOOK_RETENTION_DAYS' },
  {
    keys: { lease: 1 },
    serves: ['claim'],
    why: "the deliveries a claim won, read back by its token ($in on _id is not pushed down by FerretDB); a lease's later writes go by _id, guarded by the token",
  },
]);

export const deliveryModel = (db: Connection): Model<DeliveryDoc> =>
  (db.models.WebhookDelivery as Model<DeliveryDoc> | undefined) ?? db.model<DeliveryDoc>('WebhookDelivery', deliverySchema);
