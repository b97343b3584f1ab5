import { ApiClient, adminClient, createTestApp, e2eStack, type TestApp } from '@ris/testing';

/**
 * What an outside fuzzer found and the document now states: every bad input
 * is a 400 naming its field (never a 500), nullable fields are null in the
 * answer, and a known path answers an undeclared method with 405 and Allow.
 * openapi-fuzz.e2e.spec.ts runs Schemathesis over the whole document.
 */
describe('contract: inputs the API refuses, and how', () => {
  let app: TestApp;
  const reward = { amount: 10, fulfillmentType: 'DISCOUNT_CODE' };

  beforeAll(async () => {
    app = await createTestApp('contract inputs');
  });

  const expectRefused = (res: { status: number; body: any }, field: string) => {
    expect([res.status, res.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect(res.body.error.details.issues.map((i: { field: string }) => i.field)).toContain(field);
  };

  it('refuses numbers past their documented maximum', async () => {
    expectRefused(await app.api.post('/campaigns', { name: 'Big', referrerReward: reward, maxRewardsPerReferrer: 6260130729251921 }), 'body.maxRewardsPerReferrer');
    expectRefused(await app.api.post('/campaigns', { name: 'Big', referrerReward: { ...reward, amount: 1e16 } }), 'body.referrerReward.amount');
    expectRefused(await app.api.post('/campaigns', { name: 'Big', referrerReward: { ...reward, amount: 1e307 } }), 'body.referrerReward.amount');
    expectRefused(await app.api.post('/incentives/catalog', { name: 'Big', coinCost: 1_000_000_001 }), 'body.coinCost');
    expect((await app.api.post('/campaigns', { name: 'Max', referrerReward: { ...reward, amount: 1e9 }, maxRewardsPerReferrer: 2 ** 31 - 1 })).status).toBe(201);
  });

  it('refuses NUL and other control characters in ids, keys and names, in bodies, paths and queries', async () => {
    expectRefused(await app.api.post('/rewards/redeem', { rewardId: 'rwd_\u0000', userId: 'u1' }), 'body.rewardId');
    expectRefused(await app.api.post('/campaigns', { name: 'Launch\u0000', referrerReward: reward }), 'body.name');
    expectRefused(await app.api.post('/incentives/events', { userId: 'u\u0000', actionKey: 'a' }), 'body.userId');
    expectRefused(await app.api.post('/incentives/events', { userId: 'u1', actionKey: 'a', idempotencyKey: 'k\u0000' }), 'body.idempotencyKey');
    expectRefused(await app.api.get('/incentives/catalog/itm_%00'), 'path.itemId');
    expectRefused(await app.api.get('/stats?campaignId=%00'), 'query.campaignId');
    expectRefused(await app.api.get('/rewards/validate?code=%00'), 'query.code');
    expectRefused(await app.api.get('/referrals/AB%0ACD'), 'path.referralCode');
    expectRefused(await app.api.post('/referrals', { campaignId: 'cmp_x', referrerId: 'x'.repeat(129) }), 'body.referrerId');
  });

  it('refuses unpaired surrogates anywhere in a body', async () => {
    const res = await app.api.request('POST', '/rewards/redeem', {
      rawBody: '{"rewardId": "rwd_\\ud800x", "userId": "u1"}',
      headers: { 'content-type': 'application/json' },
    });
    expectRefused(res, 'body.rewardId');
  });

  it('refuses body bytes that are not UTF-8, of every kind, on every route, before anything is stored', async () => {
    // Each would have been read with U+FFFD in its place, making two different ids one.
    const notUtf8 = {
      'invalid start byte': [0xff, 0xfe],
      overlong: [0xc0, 0xaf],
      'surrogate half': [0xed, 0xa0, 0x80],
      'truncated sequence': [0xe2, 0x82],
    };
    const bodyWith = (before: string, bytes: number[], after: string) => Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(after)]);
    await app.api.post('/incentives/actions', { key: 'utf8', name: 'UTF-8', type: 'STANDARD', coins: 1 });
    const campaigns = (await app.api.get('/campaigns')).body.pagination.totalItems;
    for (const [kind, bytes] of Object.entries(notUtf8)) {
      const sent = [
        app.api.request('POST', '/incentives/events', { rawBody: bodyWith('{"userId":"inv-', bytes, '","actionKey":"utf8"}'), headers: { 'content-type': 'application/json' } }),
        app.api.request('POST', '/campaigns', { rawBody: bodyWith('{"name":"c', bytes, '","referrerReward":{"amount":1,"fulfillmentType":"DISCOUNT_CODE"}}'), headers: { 'content-type': 'application/json; charset=utf-8' } }),
        // Not even a body that fails to parse anyway says anything else.
        app.api.request('POST', '/referrals', { rawBody: bodyWith('{"campaignId":', bytes, ''), headers: { 'content-type': 'application/json' } }),
      ];
      for (const res of await Promise.all(sent)) {
        expect([kind, res.status, res.body.error.code, res.body.error.details.issues]).toEqual([kind, 400, 'VALIDATION_ERROR', [{ field: 'body', message: 'is not valid UTF-8' }]]);
      }
    }
    // The console and the admin API read bodies in the same one place.
    const admin = await adminClient().request('POST', '/apps', { rawBody: bodyWith('{"name":"a', [0xff], '"}'), headers: { 'content-type': 'application/json' } });
    expect([admin.status, admin.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
    const console = await new ApiClient(`${e2eStack().gatewayUrl}/console/v1`).request('POST', '/session', {
      rawBody: bodyWith('{"email":"a@example.com","password":"', [0xc0, 0xaf], '"}'),
      headers: { 'content-type': 'application/json' },
    });
    expect([console.status, console.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
    // Nothing was stored: no user, no campaign; the same ids in valid UTF-8 are taken.
    expect((await app.api.get('/incentives/events?limit=100')).body.events).toEqual([]);
    expect((await app.api.get('/campaigns')).body.pagination.totalItems).toBe(campaigns);
    expect((await app.api.post('/incentives/events', { userId: 'inv-\u00ff\u00fe', actionKey: 'utf8' })).status).toBe(201);
    expect((await app.api.post('/incentives/events', { userId: 'inv-\ufffd', actionKey: 'utf8' })).status).toBe(201);
    expect((await app.api.get('/incentives/balances/inv-%EF%BF%BD')).body.balance.coins).toBe(1);
  });

  it('takes any metadata up to 32 levels, refuses deeper, and survives 100,000 nested arrays', async () => {
    const campaign = (await app.api.post('/campaigns', { name: 'Meta', referrerReward: reward })).body.campaign;
    const { referralCode } = (await app.api.post('/referrals', { campaignId: campaign.id, referrerId: 'meta-owner' })).body;
    let deep: unknown = 'bottom';
    for (let i = 0; i < 33; i += 1) deep = { d: deep };
    expectRefused(await app.api.post('/conversions', { referralCode, refereeId: 'r1', metadata: deep }), 'body.metadata');
    const huge = await app.api.request('POST', '/conversions', {
      rawBody: `{"referralCode":"${referralCode}","refereeId":"r1","metadata":{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect([huge.status, huge.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
    // Keys MongoDB dislikes and NUL inside values are kept as JSON text.
    const odd = await app.api.post('/conversions', { referralCode, refereeId: 'r2', metadata: { $where: 'x', 'a.b': 'nul \u0000 inside', nested: { ok: [1, 2] } } });
    expect(odd.status).toBe(201);
  });

  it('answers a campaign without a referee reward with null, and takes null to remove it', async () => {
    const created = await app.api.post('/campaigns', { name: 'Two sided', referrerReward: reward, refereeReward: reward });
    // A fixed rule reads back with no percent and no cap.
    expect(created.body.campaign.refereeReward).toEqual({ ...reward, percent: null, maxAmount: null });
    const single = await app.api.patch(`/campaigns/${created.body.campaign.id}`, { refereeReward: null });
    expect([single.status, single.body.campaign.refereeReward]).toEqual([200, null]);
  });

  it('refuses an Idempotency-Key outside 1 to 255 printable ASCII characters', async () => {
    for (const key of ['with space', 'x'.repeat(256)]) {
      const res = await app.api.post('/campaigns', { name: 'Idem', referrerReward: reward }, { 'idempotency-key': key });
      expectRefused(res, 'header.Idempotency-Key');
    }
    expect((await app.api.post('/campaigns', { name: 'Idem', referrerReward: reward }, { 'idempotency-key': 'x'.repeat(255) })).status).toBe(201);
  });

  it('answers a method a known path does not serve with 405 and Allow; OPTIONS with 204 and Allow', async () => {
    // (fetch cannot send TRACE; Schemathesis does, and gets the same.)
    const del = await app.api.delete('/campaigns');
    expect([del.status, del.headers.get('allow'), del.body.error.code]).toEqual([405, 'GET, HEAD, OPTIONS, POST', 'METHOD_NOT_ALLOWED']);
    const put = await app.api.request('PUT', '/campaigns/cmp_anything', { body: { name: 'x' } });
    expect([put.status, put.headers.get('allow')]).toEqual([405, 'GET, HEAD, OPTIONS, PATCH']);
    // The more specific documented path owns the URL: /rewards/redeem is POST only, not a reward called "redeem".
    const get = await app.api.get('/rewards/redeem');
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'OPTIONS, POST']);
    const options = await app.api.request('OPTIONS', '/incentives/levels/3');
    expect([options.status, options.headers.get('allow')]).toEqual([204, 'DELETE, OPTIONS, PATCH']);
    expect((await app.api.get('/no/such/path')).status).toBe(404);
  });
});
