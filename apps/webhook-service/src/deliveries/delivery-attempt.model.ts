import { Schema, type Connection, type Model } from 'mongoose';

/** One HTTP attempt of a delivery, as GET /webhooks/{id}/deliveries/{deliveryId} shows it. */
export interface DeliveryAttemptDoc {
  _id: string;
  appId: string;
  endpointId: string;
  deliveryId: string;
  /** 1 for the first attempt. */
  number: number;
  startedAt: Date;
  durationMs: number;
  /** null when no HTTP answer came (timeout, connection refused, blocked address). */
  responseStatus: number | null;
  error: string | null;
  /** The start of the answer's body. */
  responseBody: string;
  responseBodyTruncated: boolean;
}

const deliveryAttemptSchema = new Schema<DeliveryAttemptDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    endpointId: { type: String, required: true },
    deliveryId: { type: String, required: true },
    number: { type: Number, required: true },
    startedAt: { type: Date, required: true },
    durationMs: { type: Number, required: true },
    responseStatus: { type: Number, default: null },
    error: { type: String, default: null },
    responseBody: { type: String, default: '' },
    responseBodyTruncated: { type: Boolean, default: false },
  },
  { collection: 'webhook_delivery_attempts', versionKey: false },
);
// A delivery's attempt log in order (GET /webhooks/{id}/deliveries/{deliveryId}).
deliveryAttemptSchema.index({ appId: 1, deliveryId: 1, number: 1 });
// Removing an endpoint's whole log when the endpoint is deleted.
deliveryAttemptSchema.index({ appId: 1, endpointId: 1 });
// Retention: attempts older than WEBHOOK_RETENTION_DAYS.
deliveryAttemptSchema.index({ startedAt: 1 });

export const deliveryAttemptModel = (db: Connection): Model<DeliveryAttemptDoc> =>
  (db.models.WebhookDeliveryAttempt as Model<DeliveryAttemptDoc> | undefined) ??
  db.model<DeliveryAttemptDoc>('WebhookDeliveryAttempt', deliveryAttemptSchema);
