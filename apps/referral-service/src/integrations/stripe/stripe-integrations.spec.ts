import Stripe from 'stripe';
import { isDomainError } from '@ris/domain-errors';
import { EnvelopeCipher, newKeyringEntry, parseKeyring } from '@ris/secrets';
import { secretTraces } from '@ris/testing';
import { serviceOnTestDatabase } from '../../testing/service-on-test-database';
import { StripeIntegrations } from './stripe-integrations';

const OLD_KEY = newKeyringEntry('k1');
const NEW_KEY = newKeyringEntry('k2');
const cipherOf = (keys: string) => new EnvelopeCipher(parseKeyring(keys));

/** The reason a domain call failed with. */
async function reasonOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (err) {
    if (isDomainError(err)) return `${err.kind}:${err.reason}`;
    throw err;
  }
  throw new Error('it did not fail');
}

// The custody of the Stripe webhook secrets against the real database: one
// integration per app whatever runs at once, the secret sealed and moved
// under a new master key, a secret whose key is gone a passing failure.
describe('Stripe integrations', () => {
  let svc: Awaited<ReturnType<typeof serviceOnTestDatabase>>;
  let campaignId: string;
  const appId = 'app_stripe';

  beforeAll(async () => {
    svc = await serviceOnTestDatabase('stripe-integrations');
    campaignId = (await svc.campaigns.create(appId, { name: 'Stripe', referrerReward: { amount: 10, fulfillmentType: 'DISCOUNT_CODE' } }))._id;
  });

  afterAll(() => svc.db.drop());

  it('connects each app once, whatever runs at once, and keeps the id when connected again', async () => {
    const integrations = new StripeIntegrations(svc.stored.stripeIntegrations, svc.campaigns, cipherOf(OLD_KEY));
    const both = await Promise.all(['whsec_first', 'whsec_second'].map((webhookSecret) => integrations.connect(appId, { webhookSecret, campaignId })));
    expect(both.map((c) => c.created).sort()).toEqual([false, true]);
    expect(new Set(both.map((c) => c.integration._id)).size).toBe(1);
    const again = await integrations.connect(appId, { webhookSecret: 'whsec_third', campaignId });
    expect([again.created, again.integration._id]).toEqual([false, both[0].integration._id]);
    const { secret } = await integrations.forEndpoint(again.integration._id);
    expect(secret).toBe('whsec_third');
    expect(await reasonOf(integrations.connect(appId, { webhookSecret: 'whsec_x', campaignId: 'cmp_nope' }))).toBe('not-found:NOT_FOUND');
    expect(await reasonOf(integrations.forEndpoint('stripe_nope'))).toBe('not-found:NOT_FOUND');
  });

  it('stores the secret sealed, moves it under a new master key with its next event, and cannot open it once its key is gone', async () => {
    const otherApp = 'app_stripe_rotation';
    const other = (await svc.campaigns.create(otherApp, { name: 'Rotation', referrerReward: { amount: 10, fulfillmentType: 'DISCOUNT_CODE' } }))._id;
    const webhookSecret = `whsec_${'s'.repeat(32)}`;
    const { integration } = await new StripeIntegrations(svc.stored.stripeIntegrations, svc.campaigns, cipherOf(OLD_KEY)).connect(otherApp, { webhookSecret, campaignId: other });
    const stored = await svc.db.collection('stripe_integrations').findOne({ _id: integration._id as never });
    expect(secretTraces(stored, webhookSecret)).toEqual([]);
    expect(stored?.webhookSecret.keyId).toBe('k1');

    // SECRETS_KEYS rotated: the new key first, the old one after it.
    const rotated = new StripeIntegrations(svc.stored.stripeIntegrations, svc.campaigns, cipherOf(`${NEW_KEY},${OLD_KEY}`));
    expect((await rotated.forEndpoint(integration._id)).secret).toBe(webhookSecret);
    expect((await svc.db.collection('stripe_integrations').findOne({ _id: integration._id as never }))?.webhookSecret.keyId).toBe('k2');
    // The old key removed: still opens (it moved); an integration left under a removed key is a passing failure (503).
    expect((await new StripeIntegrations(svc.stored.stripeIntegrations, svc.campaigns, cipherOf(NEW_KEY)).forEndpoint(integration._id)).secret).toBe(webhookSecret);
    expect(await reasonOf(new StripeIntegrations(svc.stored.stripeIntegrations, svc.campaigns, cipherOf(OLD_KEY)).forEndpoint(integration._id))).toBe('unavailable:UNAVAILABLE');
  });

  it('has no integrations without SECRETS_KEYS, and disconnects once', async () => {
    const withoutKeys = new StripeIntegrations(svc.stored.stripeIntegrations, svc.campaigns, undefined);
    expect(await reasonOf(withoutKeys.connect(appId, { webhookSecret: 'whsec_x', campaignId }))).toBe('unavailable:UNAVAILABLE');
    const integrations = new StripeIntegrations(svc.stored.stripeIntegrations, svc.campaigns, cipherOf(OLD_KEY));
    await integrations.disconnect(appId);
    expect(await integrations.get(appId)).toBeNull();
    expect(await reasonOf(integrations.disconnect(appId))).toBe('not-found:NOT_FOUND');
  });

  it('checks an event signed with the stored secret (Stripe.webhooks over the exact bytes)', async () => {
    const app = 'app_stripe_events';
    const campaign = (await svc.campaigns.create(app, { name: 'Events', referrerReward: { amount: 10, fulfillmentType: 'DISCOUNT_CODE' } }))._id;
    const integrations = new StripeIntegrations(svc.stored.stripeIntegrations, svc.campaigns, cipherOf(OLD_KEY));
    const { integration } = await integrations.connect(app, { webhookSecret: 'whsec_events', campaignId: campaign });
    const { secret } = await integrations.forEndpoint(integration._id);
    const payload = JSON.stringify({ id: 'evt_1', type: 'customer.created', data: { object: {} } });
    expect(Stripe.webhooks.constructEvent(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_events' }), secret).id).toBe('evt_1');
  });
});
