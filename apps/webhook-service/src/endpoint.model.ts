import { Schema, type Connection, type Model } from 'mongoose';
import { carriesEvents, type OutboxFields } from '@ris/events';
import type { WebhookEventName } from './webhook-events';

export type DisabledReasonName = 'MANUAL' | 'FAILING';

/** A secret replaced by a rotation; it keeps signing until expiresAt. */
export interface PreviousSecret {
  secret: string;
  expiresAt: Date;
}

export interface EndpointDoc extends OutboxFields {
  _id: string;
  appId: string;
  url: string;
  /** Subscribed webhook events; empty = every event. */
  events: WebhookEventName[];
  description: string | null;
  enabled: boolean;
  disabledReason: DisabledReasonName | null;
  disabledAt: Date | null;
  /**
   * Releases before webhook.endpoint_disabled was stored with the disabling
   * set this until they had written the event: true only on an endpoint one
   * of them left with its event owed (see announcePendingDisabled). Always
   * false now.
   */
  disabledEventPending: boolean;
  /** First failed attempt since the last successful one; null while healthy. */
  failingSince: Date | null;
  /**
   * whsec_… as given to the caller. Stored as is because signing needs it
   * (an HMAC key cannot be hashed like an API key).
   */
  secret: string;
  previousSecrets: PreviousSecret[];
  createdAt: Date;
  updatedAt: Date;
}

const previousSecretSchema = new Schema<PreviousSecret>(
  { secret: { type: String, required: true }, expiresAt: { type: Date, required: true } },
  { _id: false },
);

const endpointSchema = new Schema<EndpointDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    url: { type: String, required: true },
    events: { type: [String], default: [] },
    description: { type: String, default: null },
    enabled: { type: Boolean, required: true },
    disabledReason: { type: String, default: null },
    disabledAt: { type: Date, default: null },
    disabledEventPending: { type: Boolean, default: false },
    failingSince: { type: Date, default: null },
    secret: { type: String, required: true },
    previousSecrets: { type: [previousSecretSchema], default: [] },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'webhook_endpoints', versionKey: false },
);
// GET /webhooks: an app's endpoints, newest first.
endpointSchema.index({ appId: 1, createdAt: -1, _id: -1 });
// The fan-out of every domain event: the enabled endpoints of one app.
endpointSchema.index({ appId: 1, enabled: 1 });
// The recovery pass: endpoints an earlier release disabled whose event it had not stored.
endpointSchema.index({ disabledEventPending: 1 });
// webhook.endpoint_disabled is stored with the disabling, until published.
carriesEvents(endpointSchema);

export const endpointModel = (db: Connection): Model<EndpointDoc> =>
  (db.models.WebhookEndpoint as Model<EndpointDoc> | undefined) ?? db.model<EndpointDoc>('WebhookEndpoint', endpointSchema);
