import { Schema, type Connection, type Model } from 'mongoose';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { DeliveryAttemptRepository } from './delivery-attempt.repository';

/**
 * What one HTTP attempt gave: the HTTP client's answer (dispatch/webhook-http-client.ts),
 * what the queue records, and what the attempt log keeps.
 */
export interface AttemptResult {
  startedAt: Date;
  durationMs: number;
  /** null when no HTTP answer came (timeout, connection refused, blocked address). */
  responseStatus: number | null;
  error: string | null;
  /** The start of the answer's body. */
  responseBody: string;
  responseBodyTruncated: boolean;
}

/** One HTTP attempt of a delivery, as GET /webhooks/{id}/deliveries/{deliveryId} shows it. */
export interface DeliveryAttemptDoc extends AttemptResult {
  _id: string;
  appId: string;
  endpointId: string;
  deliveryId: string;
  /** 1 for the first attempt. */
  number: number;
}

/** An attempt's result as stored: in the log, and inside a delivery as its first attempt (delivery.model.ts). */
export const attemptResultFields = {
  startedAt: { type: Date, required: true },
  durationMs: { type: Number, required: true },
  responseStatus: { type: Number, default: null },
  error: { type: String, default: null },
  responseBody: { type: String, default: '' },
  responseBodyTruncated: { type: Boolean, default: false },
} as const;

const deliveryAttemptSchema = new Schema<DeliveryAttemptDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    endpointId: { type: String, required: true },
    deliveryId: { type: String, required: true },
    number: { type: Number, required: true },
    ...attemptResultFields,
  },
  { collection: 'webhook_delivery_attempts', versionKey: false },
);
declareIndexes<QueryNames<DeliveryAttemptRepository>>(deliveryAttemptSchema, [
  { keys: { appId: 1, deliveryId: 1, number: 1 }, serves: ['ofDelivery'], why: "a delivery's attempt log in order (GET /webhooks/{id}/deliveries/{deliveryId})" },
  { keys: { appId: 1, endpointId: 1 }, serves: ['removeForEndpoint'], why: "removing an endpoint's whole log when the endpoint is deleted" },
  { keys: { startedAt: 1 }, serves: ['removeStartedBefore'], why: 'retention: attempts older than WEBHOOK_RETENTION_DAYS' },
]);

export const deliveryAttemptModel = (db: Connection): Model<DeliveryAttemptDoc> =>
  (db.models.WebhookDeliveryAttempt as Model<DeliveryAttemptDoc> | undefined) ??
  db.model<DeliveryAttemptDoc>('WebhookDeliveryAttempt', deliveryAttemptSchema);
