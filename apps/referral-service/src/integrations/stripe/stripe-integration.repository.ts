import type { Connection } from 'mongoose';
import { Repository } from '@ris/mongo';
import type { SealedSecret } from '@ris/secrets';
import { stripeIntegrationModel, type StripeIntegrationDoc } from './stripe-integration.model';

/** The apps' Stripe integrations (stripe-integration.model.ts): every question asked of them and every write, by name. */
export class StripeIntegrationRepository extends Repository<StripeIntegrationDoc> {
  constructor(db: Connection) {
    super(stripeIntegrationModel(db));
  }

  /** The app's integration, or null when it is not connected. */
  ofApp(appId: string): Promise<StripeIntegrationDoc | null> {
    return this.collection.findOne(appId, {});
  }

  /**
   * The integration a public endpoint names, whichever app holds it: the
   * one lookup not scoped by an app, as Stripe's request carries no app
   * (its random id, in the endpoint's URL, finds the app; the signature
   * checked with that app's secret then proves the request is Stripe's).
   */
  async forEndpoint(integrationId: string): Promise<StripeIntegrationDoc | null> {
    return this.acrossApps.findById(integrationId).lean<StripeIntegrationDoc>().exec();
  }

  /** The app's first integration; null when the app has one already (a concurrent connect made it): read it and replace. */
  create(appId: string, integration: Omit<StripeIntegrationDoc, 'appId'>): Promise<StripeIntegrationDoc | null> {
    return this.insertUnlessTaken(appId, integration);
  }

  /** A new secret and campaign for the app's integration `id`; the integration after, or null when it is gone. */
  replace(appId: string, id: string, fields: Pick<StripeIntegrationDoc, 'campaignId' | 'webhookSecret' | 'updatedAt'>): Promise<StripeIntegrationDoc | null> {
    return this.collection.findOneAndUpdate(appId, { _id: id }, { $set: fields });
  }

  /**
   * The same secret sealed anew (its data key under the current master
   * key), only while it is the one read: a connect that replaced it
   * meanwhile sealed a new nonce, and is left as it is.
   */
  rewrapSecret(integration: Pick<StripeIntegrationDoc, '_id' | 'appId' | 'webhookSecret'>, rewrapped: SealedSecret): Promise<boolean> {
    return this.collection.compareAndSet(
      integration.appId,
      { _id: integration._id, 'webhookSecret.nonce': integration.webhookSecret.nonce },
      { $set: { webhookSecret: rewrapped } },
    );
  }

  /** Disconnects the app: whether there was an integration to remove. */
  async remove(appId: string): Promise<boolean> {
    return (await this.collection.deleteOne(appId, {})) > 0;
  }
}
