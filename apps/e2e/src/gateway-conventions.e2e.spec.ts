import type { ProcessStack } from '@ris/stack';
import { ApiClient, adminClient, createTestApp, e2eStack, type TestApp } from '@ris/testing';
import { ownStack, removeOwnStack } from './support/own-stack';

// docs/product-decisions.md §1–§2: authentication, the error envelope, body rules,
// request ids, rate limits and the admin API, through the real gateway.
describe('gateway conventions', () => {
  let app: TestApp;
  let base: string;

  beforeAll(async () => {
    app = await createTestApp('conventions');
    base = `${e2eStack().gatewayUrl}/api/v1`;
  });

  const expectError = (res: { status: number; body: any }, status: number, code: string) => {
    expect(res.status).toBe(status);
    expect(res.body).toEqual({
      error: expect.objectContaining({ code, message: expect.any(String), requestId: expect.any(String) }),
    });
  };

  describe('authentication', () => {
    it('refuses a request without a key', async () => {
      const res = await new ApiClient(base).get('/campaigns');
      expectError(res, 401, 'UNAUTHENTICATED');
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    });

    it('refuses a malformed key and an unknown key', async () => {
      expectError(await new ApiClient(base, 'not-a-key').get('/campaigns'), 401, 'UNAUTHENTICATED');
      expectError(await new ApiClient(base, `rk_live_${'x'.repeat(40)}`).get('/campaigns'), 401, 'UNAUTHENTICATED');
      const res = await new ApiClient(base).get('/campaigns', { authorization: `Basic ${app.apiKey}` });
      expectError(res, 401, 'UNAUTHENTICATED');
    });

    it('issues further keys and stops accepting a revoked one', async () => {
      const admin = adminClient();
      const issued = await admin.post(`/apps/${app.appId}/keys`);
      expect(issued.status).toBe(201);
      expect(issued.body.apiKey).toMatch(/^rk_live_[A-Za-z0-9]{32,}$/);
      const second = new ApiClient(base, issued.body.apiKey);
      expect((await second.get('/campaigns')).status).toBe(200);
      // The first key keeps working.
      expect((await app.api.get('/campaigns')).status).toBe(200);

      const keys = await admin.get(`/apps/${app.appId}/keys`);
      expect(keys.body.keys).toHaveLength(2);
      expect(JSON.stringify(keys.body)).not.toContain(issued.body.apiKey);

      expect((await admin.delete(`/apps/${app.appId}/keys/${issued.body.key.id}`)).status).toBe(204);
      expectError(await second.get('/campaigns'), 401, 'UNAUTHENTICATED');
      expect((await app.api.get('/campaigns')).status).toBe(200);
      expectError(await admin.delete(`/apps/${app.appId}/keys/key_doesnotexist`), 404, 'NOT_FOUND');
    });

    it('guards the admin API with the admin token', async () => {
      const stack = e2eStack();
      const wrong = new ApiClient(`${stack.gatewayUrl}/admin/v1`, 'wrong-token-wrong-token');
      expectError(await wrong.post('/apps', { name: 'x' }), 401, 'UNAUTHENTICATED');
      // An API key is not an admin token.
      expectError(await new ApiClient(`${stack.gatewayUrl}/admin/v1`, app.apiKey).post('/apps', { name: 'x' }), 401, 'UNAUTHENTICATED');
      expectError(await adminClient().post('/apps', { name: '' }), 400, 'VALIDATION_ERROR');
      expectError(await adminClient().get('/apps/app_nope'), 404, 'NOT_FOUND');
    });
  });

  describe('bodies and routes', () => {
    it('answers 404 in the envelope for an unknown route', async () => {
      expectError(await app.api.get('/no-such-thing'), 404, 'NOT_FOUND');
    });

    it('answers 415 for a body that is not JSON', async () => {
      const res = await app.api.request('POST', '/campaigns', { rawBody: 'name=x', headers: { 'content-type': 'text/plain' } });
      expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    });

    it('answers 400 for unparsable JSON', async () => {
      const res = await app.api.request('POST', '/campaigns', { rawBody: '{"name":', headers: { 'content-type': 'application/json' } });
      expectError(res, 400, 'VALIDATION_ERROR');
    });

    it('answers 413 for a body over 1 MiB', async () => {
      const res = await app.api.post('/campaigns', { name: 'x'.repeat(1024 * 1024 + 10) });
      expectError(res, 413, 'PAYLOAD_TOO_LARGE');
    });

    it('names every invalid field', async () => {
      const res = await app.api.post('/campaigns', { name: 42, referrerReward: { amount: -1, fulfillmentType: 'CHEQUE' } });
      expectError(res, 400, 'VALIDATION_ERROR');
      const fields = res.body.error.details.issues.map((i: { field: string }) => i.field);
      expect(fields).toEqual(
        expect.arrayContaining(['body.name', 'body.referrerReward.amount', 'body.referrerReward.fulfillmentType']),
      );
    });
  });

  describe('request ids', () => {
    it('echoes the caller\'s X-Request-Id, in headers and error bodies', async () => {
      const res = await app.api.get('/no-such-thing', { 'x-request-id': 'trace-abc-123' });
      expect(res.headers.get('x-request-id')).toBe('trace-abc-123');
      expect(res.body.error.requestId).toBe('trace-abc-123');
    });

    it('makes one when none is sent', async () => {
      const res = await app.api.get('/campaigns');
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });
  });

  describe('rate limit', () => {
    // A gateway of its own with a slow limit (5/s, burst 50): the shared
    // stack's is raised so functional tests do not race the limiter, and a
    // slow refill keeps the count exact however long a loaded machine takes
    // to send the requests.
    let limited: ProcessStack;
    beforeAll(async () => {
      limited = ownStack('rl', { apps: ['gateway'], env: { RATE_LIMIT_PER_SECOND: '5', RATE_LIMIT_BURST: '50' } });
      await limited.start();
    }, 60_000);
    afterAll(() => removeOwnStack(limited));

    const appOn = async (name: string) => {
      const created = await new ApiClient(`${limited.gatewayUrl}/admin/v1`, limited.options.adminToken).post('/apps', { name });
      return new ApiClient(`${limited.gatewayUrl}/api/v1`, created.body.apiKey);
    };

    it('answers 429 with Retry-After once a key exceeds its burst, per app', async () => {
      const [busy, calm] = await Promise.all([appOn('rate limited'), appOn('calm')]);
      const started = Date.now();
      const responses = await Promise.all(Array.from({ length: 160 }, () => busy.get('/no-such-thing')));
      const elapsedSeconds = (Date.now() - started) / 1000;
      const passed = responses.filter((r) => r.status === 404).length;
      const limitedResponses = responses.filter((r) => r.status === 429);
      // The burst passes, plus what refilled while the requests arrived; every other one is refused.
      expect(passed).toBeGreaterThanOrEqual(50);
      expect(passed).toBeLessThanOrEqual(50 + Math.ceil(5 * elapsedSeconds) + 1);
      expect(limitedResponses.length).toBe(160 - passed);
      expect(limitedResponses[0].body.error.code).toBe('RATE_LIMITED');
      expect(Number(limitedResponses[0].headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      // Another app is not affected.
      expect((await calm.get('/no-such-thing')).status).toBe(404);
    });

    it("limits the public Stripe endpoint per integration, before anything reaches the services", async () => {
      const stripe = new ApiClient(`${limited.gatewayUrl}/api/v1/integrations/stripe/events`);
      const started = Date.now();
      // Unsigned: the gateway itself answers the ones it admits (400, no Stripe-Signature).
      const responses = await Promise.all(Array.from({ length: 120 }, () => stripe.post('/int_flooded', { id: 'evt_1', type: 'charge.refunded' })));
      const elapsedSeconds = (Date.now() - started) / 1000;
      const passed = responses.filter((r) => r.status === 400).length;
      expect(passed).toBeGreaterThanOrEqual(50);
      expect(passed).toBeLessThanOrEqual(50 + Math.ceil(5 * elapsedSeconds) + 1);
      expect(responses.filter((r) => r.status === 429).length).toBe(120 - passed);
      // Another integration's bucket is its own.
      expect((await stripe.post('/int_other', { id: 'evt_2', type: 'charge.refunded' })).status).toBe(400);
    });
  });

  describe('health', () => {
    it('reports liveness and readiness of every dependency', async () => {
      const client = new ApiClient(e2eStack().gatewayUrl);
      expect((await client.get('/healthz')).body).toEqual({ status: 'ok' });
      const ready = await client.get('/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body.checks).toEqual({
        mongodb: 'ok',
        redis: 'ok',
        referral: 'ok',
        fraud: 'ok',
        reward: 'ok',
        incentive: 'ok',
        catalogMarketplace: 'ok',
        webhook: 'ok',
      });
    });
  });
});
