import { describe, expect, it } from 'vitest';
import { FakeApi, apiError } from '../test/fake-api';
import { ApiError, ok } from './api-error';
import { createApiClient } from './client';

describe('the API client', () => {
  it('names the app on /api/v1 calls only and sends the CSRF token on changes only', async () => {
    const api = new FakeApi().on('GET', '/api/v1/campaigns', { body: {} }).on('POST', '/api/v1/campaigns', { status: 201, body: {} }).on('GET', '/console/v1/session', { body: {} }).install();
    const client = createApiClient({ appId: () => 'app_7', csrfToken: () => 'tok' });
    await client.GET('/api/v1/campaigns');
    await client.POST('/api/v1/campaigns', { body: { name: 'x', referrerReward: { amount: 1, fulfillmentType: 'MANUAL' } } as never });
    await client.GET('/console/v1/session');
    const [get, post, session] = api.requests;
    expect([get!.headers.get('X-App-Id'), get!.headers.get('X-CSRF-Token')]).toEqual(['app_7', null]);
    expect([post!.headers.get('X-App-Id'), post!.headers.get('X-CSRF-Token')]).toEqual(['app_7', 'tok']);
    expect(session!.headers.get('X-App-Id')).toBeNull();
  });

  it("throws the API's error envelope, field names as the form knows them", async () => {
    new FakeApi()
      .on('POST', '/api/v1/campaigns', apiError(400, 'VALIDATION_ERROR', 'bad', { issues: [{ field: 'body.referrerReward.amount', message: 'Too big' }, { field: 'query.page', message: 'x' }] }))
      .install();
    const client = createApiClient({ appId: () => 'app_7', csrfToken: () => 'tok' });
    const error = await ok(client.POST('/api/v1/campaigns', { body: {} as never })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', requestId: 'req_test' });
    expect((error as ApiError).issues).toEqual([
      { field: 'referrerReward.amount', message: 'Too big' },
      { field: 'query.page', message: 'x' },
    ]);
  });

  it('reads a 204 as done and a 429 with when to try again', async () => {
    new FakeApi()
      .on('DELETE', '/console/v1/session', { status: 204 })
      .on('GET', '/api/v1/campaigns', apiError(429, 'RATE_LIMITED', 'Slow down.', undefined, { 'Retry-After': '3' }))
      .install();
    const client = createApiClient({ appId: () => 'app_7', csrfToken: () => 'tok' });
    await expect(ok(client.DELETE('/console/v1/session'))).resolves.toBeUndefined();
    const error = (await ok(client.GET('/api/v1/campaigns')).catch((e: unknown) => e)) as ApiError;
    expect(error.retryAfterSeconds).toBe(3);
    expect(error.userMessage).toBe('Slow down. Try again in 3 s.');
  });
});
