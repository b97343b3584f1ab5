import { Code, ConnectError, createClient, createRouterTransport, type Client } from '@connectrpc/connect';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { EndpointDisabledReason, WebhookDeliveryStatus, WebhookEvent, WebhookService } from '@ris/contracts';
import { domainEvent } from '@ris/events';
import { errorReason } from '@ris/rpc';
import { EnvelopeCipher, newKeyringEntry, parseKeyring } from '@ris/secrets';
import { uniqueName } from '@ris/testing';
import { Deliveries } from './deliveries/deliveries';
import { DeliveryQueue } from './dispatch/delivery-queue';
import { Endpoints } from './endpoints/endpoints';
import { webhookStores, type WebhookStores } from './testing/webhook-stores';
import { webhookService } from './webhook.rpc';

// The RPC as the gateway calls it (an in-process Connect transport, the
// service's own interceptors included), against the real database: the
// tenant of each call, the answers' fields, and the domain's refusals as
// the codes and reasons the gateway maps to HTTP.
describe('WebhookService at its edge', () => {
  let stores: WebhookStores;
  let deliveries: Deliveries;
  let webhooks: Client<typeof WebhookService>;
  const woken: string[] = [];

  beforeAll(async () => {
    stores = await webhookStores('webhook_rpc');
    const endpoints = new Endpoints(stores.endpoints, { allowPrivateTargets: true }, new EnvelopeCipher(parseKeyring(newKeyringEntry('test'))));
    deliveries = new Deliveries(stores.deliveries, stores.attempts);
    const service = webhookService(endpoints, deliveries, (delivery) => woken.push(delivery._id));
    webhooks = createClient(WebhookService, createRouterTransport((router) => service.register(router)));
  });

  afterAll(() => stores.db.drop());

  const refusal = async (call: Promise<unknown>) => {
    const err = await call.then(
      () => null,
      (thrown: unknown) => thrown,
    );
    if (!(err instanceof ConnectError)) throw new Error(`expected a ConnectError, got ${String(err)}`);
    return { code: err.code, message: err.rawMessage, ...errorReason(err) };
  };
  const create = (appId: string, fields: { url?: string; events?: WebhookEvent[]; description?: string } = {}) =>
    webhooks.createEndpoint({ appId, url: 'http://127.0.0.1:9/hook', events: [], operationKey: '', ...fields });

  it('acts for the app of each call, and refuses a call without one', async () => {
    expect(await refusal(webhooks.listEndpoints({ appId: '  ' }))).toEqual({ code: Code.InvalidArgument, message: 'appId is required', reason: 'VALIDATION_ERROR' });
    const appId = uniqueName('app');
    const { endpoint } = await create(` ${appId} `);
    expect((await webhooks.listEndpoints({ appId })).endpoints.map((e) => e.id)).toEqual([endpoint!.id]);
    expect(await refusal(webhooks.getEndpoint({ appId: uniqueName('app'), endpointId: endpoint!.id }))).toEqual({
      code: Code.NotFound,
      message: 'Webhook endpoint not found',
      reason: 'NOT_FOUND',
      details: { webhookId: endpoint!.id },
    });
  });

  it('answers an endpoint with its fields and without its secrets', async () => {
    const appId = uniqueName('app');
    const { endpoint, secret } = await create(appId, { events: [WebhookEvent.REWARD_CREATED, WebhookEvent.LEVEL_UP], description: ' Payouts ' });
    expect(secret).toMatch(/^whsec_/);
    const { $typeName: _type, createdAt, updatedAt, ...fields } = endpoint!;
    expect(fields).toEqual({
      id: expect.stringMatching(/^whe_/),
      url: 'http://127.0.0.1:9/hook',
      events: [WebhookEvent.REWARD_CREATED, WebhookEvent.LEVEL_UP],
      description: 'Payouts',
      enabled: true,
      disabledReason: EndpointDisabledReason.UNSPECIFIED,
    });
    expect(timestampDate(createdAt!)).toEqual(timestampDate(updatedAt!));

    const rotated = await webhooks.rotateEndpointSecret({ appId, endpointId: endpoint!.id, operationKey: '' });
    const graceEnds = timestampDate(rotated.endpoint!.previousSecretExpiresAt!).getTime();
    expect(graceEnds - Date.now()).toBeGreaterThan(23 * 3_600_000);
    const disabled = await webhooks.updateEndpoint({ appId, endpointId: endpoint!.id, enabled: false, replaceEvents: false, events: [], clearDescription: true });
    expect(disabled.endpoint).toMatchObject({ enabled: false, disabledReason: EndpointDisabledReason.MANUAL });
    expect(disabled.endpoint!.description).toBeUndefined();
    expect(disabled.endpoint!.disabledAt).toBeDefined();
  });

  it('shows a delivery and its attempt log, the next attempt only while one is due', async () => {
    const appId = uniqueName('app');
    const { endpoint } = await create(appId);
    const { delivery } = await webhooks.sendTestEvent({ appId, endpointId: endpoint!.id, operationKey: '' });
    expect(woken).toContain(delivery!.id);
    expect(delivery).toMatchObject({ endpointId: endpoint!.id, event: WebhookEvent.WEBHOOK_TEST, status: WebhookDeliveryStatus.PENDING, attempts: 0 });
    expect(delivery!.nextAttemptAt).toBeDefined();

    const queue = new DeliveryQueue(stores.deliveries, stores.attempts);
    const [claim] = await queue.claim([delivery!.id], new Date(), 10_000);
    const startedAt = new Date('2026-11-02T10:00:00.000Z');
    const outcome = { startedAt, durationMs: 12, responseStatus: 500, error: null, responseBody: 'down', responseBodyTruncated: false };
    await queue.recordAttempt(claim, outcome, { succeeded: false, nextAttemptAt: null });

    const shown = await webhooks.getDelivery({ appId, endpointId: endpoint!.id, deliveryId: delivery!.id });
    expect(shown.delivery).toMatchObject({ status: WebhookDeliveryStatus.FAILED, attempts: 1, lastResponseStatus: 500 });
    expect([shown.delivery!.lastError, shown.delivery!.nextAttemptAt]).toEqual([undefined, undefined]);
    expect(timestampDate(shown.delivery!.completedAt!)).toEqual(new Date(startedAt.getTime() + 12));
    expect(JSON.parse(shown.payloadJson)).toMatchObject({ event: 'WEBHOOK_TEST', data: { webhookId: endpoint!.id } });
    const { $typeName: _type, startedAt: at, ...attempt } = shown.attempts[0];
    expect(attempt).toEqual({ number: 1, durationMs: 12, responseStatus: 500, error: undefined, responseBody: 'down', responseBodyTruncated: false });
    expect(timestampDate(at!)).toEqual(startedAt);
  });

  it("turns the domain's refusals into the codes, reasons and details the gateway maps", async () => {
    const appId = uniqueName('app');
    expect(await refusal(create(appId, { url: 'ftp://example.com/' }))).toEqual({
      code: Code.InvalidArgument,
      message: 'url must start with http:// or https://',
      reason: 'VALIDATION_ERROR',
      details: { field: 'url', reason: 'UNSUPPORTED_SCHEME' },
    });
    expect(await refusal(create(appId, { description: 'x'.repeat(501) }))).toMatchObject({ code: Code.InvalidArgument, reason: 'VALIDATION_ERROR' });

    const { endpoint } = await create(appId);
    const [queued] = await deliveries.createForEvent(appId, [await stores.endpoints.findById(appId, endpoint!.id).then((e) => e!)], domainEvent('referral.created', appId, {}), 'REFERRAL_CREATED');
    await webhooks.updateEndpoint({ appId, endpointId: endpoint!.id, enabled: false, replaceEvents: false, events: [], clearDescription: false });
    expect(await refusal(webhooks.retryDelivery({ appId, endpointId: endpoint!.id, deliveryId: queued._id }))).toEqual({
      code: Code.Aborted,
      message: 'The webhook endpoint is disabled; enable it before retrying its deliveries.',
      reason: 'CONFLICT',
      details: { webhookId: endpoint!.id },
    });
  });
});
