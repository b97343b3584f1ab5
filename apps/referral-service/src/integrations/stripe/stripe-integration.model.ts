import { Schema, type Connection, type Model } from 'mongoose';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { SealedSecret } from '@ris/secrets';
import type { StripeIntegrationRepository } from './stripe-integration.repository';

/**
 * An app's connection to its Stripe account's webhooks (docs/api.md#stripe):
 * at most one per app. Its _id (`stripe_…`, random) names the public
 * endpoint Stripe posts to, so it stays when the app connects again (a new
 * secret or campaign) and the endpoint configured in Stripe keeps working.
 */
export interface StripeIntegrationDoc {
  _id: string;
  appId: string;
  /** The campaign whose referral codes its checkouts convert through. */
  campaignId: string;
  /** The endpoint's signing secret in Stripe (whsec_…), sealed (libs/secrets) and bound to this record: never stored in clear. */
  webhookSecret: SealedSecret;
  connectedAt: Date;
  /** When the secret or the campaign last changed. */
  updatedAt: Date;
}

const stripeIntegrationSchema = new Schema<StripeIntegrationDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    campaignId: { type: String, required: true },
    // A sealed secret is a plain object of base64 strings (SealedSecret).
    webhookSecret: { type: Schema.Types.Mixed, required: true },
    connectedAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'stripe_integrations', versionKey: false },
);
declareIndexes<QueryNames<StripeIntegrationRepository>>(stripeIntegrationSchema, [
  {
    keys: { appId: 1 },
    options: { unique: true },
    serves: ['ofApp', 'create', 'replace', 'rewrapSecret', 'remove'],
    why: "the app's one integration; unique, so two first connections at once make one integration",
  },
]);

export const stripeIntegrationModel = (db: Connection): Model<StripeIntegrationDoc> =>
  (db.models.StripeIntegration as Model<StripeIntegrationDoc> | undefined) ??
  db.model<StripeIntegrationDoc>('StripeIntegration', stripeIntegrationSchema);
