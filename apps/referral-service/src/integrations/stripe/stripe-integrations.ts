import { conflict, notFound, unavailable } from '@ris/domain-errors';
import { SerialByKey, newId } from '@ris/mongo';
import { SecretDecryptionError, UnknownKeyError, type EnvelopeCipher, type SealedSecret } from '@ris/secrets';
import type { Campaigns } from '../../campaigns/campaigns';
import type { StripeIntegrationDoc } from './stripe-integration.model';
import type { StripeIntegrationRepository } from './stripe-integration.repository';

export interface StripeConnection {
  /** The endpoint's signing secret in Stripe (whsec_…). */
  webhookSecret: string;
  campaignId: string;
}

/** What a sealed webhook secret is bound to: copied to another integration, or another app, it does not open. */
const secretContext = (integration: Pick<StripeIntegrationDoc, '_id' | 'appId'>) => ['stripe-webhook-secret', integration.appId, integration._id];

// Two connects of one app at once: one creates, the other replaces; more tries than this is a bug, not contention.
const CONNECT_TRIES = 3;

/**
 * An app's Stripe integration (docs/api.md#stripe): connected with its
 * webhook secret (sealed at rest with libs/secrets, opened only to check a
 * signature, never answered) and the campaign its checkouts convert in.
 * Connecting again replaces both and keeps the id, so the endpoint URL set
 * in Stripe keeps working across a secret's rotation.
 */
export class StripeIntegrations {
  /** One secret write of an app at a time in this process (a connect beside a move to the current key; FerretDB's conditional update is a read and a write). */
  private readonly writes = new SerialByKey();

  constructor(
    private readonly integrations: StripeIntegrationRepository,
    private readonly campaigns: Campaigns,
    /** SECRETS_KEYS (libs/secrets); a service wired without it (a maintenance command) has no integrations. */
    private readonly cipher: EnvelopeCipher | undefined,
  ) {}

  private sealer(): EnvelopeCipher {
    if (!this.cipher) throw unavailable('Stripe integrations need SECRETS_KEYS, which this process was started without.');
    return this.cipher;
  }

  async connect(appId: string, connection: StripeConnection): Promise<{ integration: StripeIntegrationDoc; created: boolean }> {
    const cipher = this.sealer();
    await this.campaigns.get(appId, connection.campaignId);
    return this.writes.run(appId, () => this.connectNow(appId, connection, cipher));
  }

  private async connectNow(appId: string, connection: StripeConnection, cipher: EnvelopeCipher): Promise<{ integration: StripeIntegrationDoc; created: boolean }> {
    for (let attempt = 0; attempt < CONNECT_TRIES; attempt += 1) {
      const now = new Date();
      const existing = await this.integrations.ofApp(appId);
      if (existing) {
        const replaced = await this.integrations.replace(appId, existing._id, {
          campaignId: connection.campaignId,
          webhookSecret: cipher.seal(connection.webhookSecret, secretContext(existing)),
          updatedAt: now,
        });
        if (replaced) return { integration: replaced, created: false };
        continue; // disconnected meanwhile: connect afresh
      }
      const _id = newId('stripe');
      const created = await this.integrations.create(appId, {
        _id,
        campaignId: connection.campaignId,
        webhookSecret: cipher.seal(connection.webhookSecret, secretContext({ _id, appId })),
        connectedAt: now,
        updatedAt: now,
      });
      if (created) return { integration: created, created: true };
      // Another connect of the app made it first: replace its secret and campaign with these.
    }
    throw conflict('CONFLICT', 'The Stripe integration is being changed concurrently; retry.');
  }

  /** The app's integration; null when it is not connected. */
  get(appId: string): Promise<StripeIntegrationDoc | null> {
    return this.integrations.ofApp(appId);
  }

  async disconnect(appId: string): Promise<void> {
    if (!(await this.integrations.remove(appId))) throw notFound('Stripe integration');
  }

  /**
   * The integration a public endpoint names and its webhook secret in
   * clear, to check a signature with. A secret sealed under an older master
   * key moves under the current one on the way (a rotation of SECRETS_KEYS);
   * one that does not open (its key removed from SECRETS_KEYS) is 503, so
   * Stripe retries until the key is back.
   */
  async forEndpoint(integrationId: string): Promise<{ integration: StripeIntegrationDoc; secret: string }> {
    const cipher = this.sealer();
    const integration = await this.integrations.forEndpoint(integrationId);
    if (!integration) throw notFound('Stripe integration', { integrationId });
    let secret: string;
    try {
      secret = cipher.openText(integration.webhookSecret, secretContext(integration));
    } catch (err) {
      if (!(err instanceof UnknownKeyError || err instanceof SecretDecryptionError)) throw err;
      throw unavailable(`The Stripe integration's webhook secret cannot be opened with SECRETS_KEYS: ${err.message}`);
    }
    if (!cipher.isCurrent(integration.webhookSecret)) await this.moveToCurrentKey(integration, cipher.rewrap(integration.webhookSecret));
    return { integration, secret };
  }

  /** The secret under the current master key, unless it was replaced meanwhile (a connect: already under it). */
  private moveToCurrentKey(integration: StripeIntegrationDoc, rewrapped: SealedSecret): Promise<boolean> {
    return this.writes.run(integration.appId, () => this.integrations.rewrapSecret(integration, rewrapped));
  }
}
