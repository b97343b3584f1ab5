import { Schema, type Connection, type Model } from 'mongoose';
import type { EndpointDisabledReason, EnumName } from '@ris/contracts';
import { carriesEvents, type OutboxFields } from '@ris/events';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { SealedSecret } from '@ris/secrets';
import type { WebhookEventName } from '../events/webhook-events';
import type { EndpointRepository } from './endpoint.repository';

/** MANUAL or FAILING: the names of the contract's EndpointDisabledReason. */
export type DisabledReasonName = EnumName<typeof EndpointDisabledReason>;

/**
 * A signing secret as stored: sealed (encrypted at rest, libs/secrets), or
 * the plain whsec_… a database from before encryption at rest still holds
 * until the service uses it or `tools/webhook-rewrap-secrets.mjs` runs
 * (signing/endpoint-secrets.ts).
 */
export type StoredSecret = SealedSecret | string;

/** A secret replaced by a rotation; it keeps signing until expiresAt. */
export interface PreviousSecret {
  secret: StoredSecret;
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
   * The whsec_… given to the caller, encrypted: signing needs it back (an
   * HMAC key cannot be hashed like an API key), a database leak must not
   * give it away.
   */
  secret: StoredSecret;
  previousSecrets: PreviousSecret[];
  /**
   * The operation keys (from the requests' Idempotency-Keys) of the request
   * that created the endpoint and of the one that set its current secret:
   * their retries are answered with that endpoint and secret.
   */
  createdByOperation?: string | null;
  secretSetByOperation?: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const previousSecretSchema = new Schema<PreviousSecret>(
  // Mixed: a sealed secret (an object), or a plain string from before encryption at rest.
  { secret: { type: Schema.Types.Mixed, required: true }, expiresAt: { type: Date, required: true } },
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
    secret: { type: Schema.Types.Mixed, required: true },
    previousSecrets: { type: [previousSecretSchema], default: [] },
    createdByOperation: { type: String, default: null },
    secretSetByOperation: { type: String, default: null },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'webhook_endpoints', versionKey: false },
);
declareIndexes<QueryNames<EndpointRepository>>(endpointSchema, [
  { keys: { appId: 1, createdAt: -1, _id: -1 }, serves: ['list'], why: "GET /webhooks: an app's endpoints, newest first" },
  { keys: { appId: 1, enabled: 1 }, serves: ['enabled'], why: 'the fan-out of every domain event: the enabled endpoints of one app' },
  {
    keys: { disabledEventPending: 1 },
    serves: ['pendingDisabled'],
    why: 'the recovery pass: endpoints an earlier release disabled whose event it had not stored',
  },
]);
// webhook.endpoint_disabled is stored with the disabling, until published.
carriesEvents(endpointSchema);

export const endpointModel = (db: Connection): Model<EndpointDoc> =>
  (db.models.WebhookEndpoint as Model<EndpointDoc> | undefined) ?? db.model<EndpointDoc>('WebhookEndpoint', endpointSchema);
