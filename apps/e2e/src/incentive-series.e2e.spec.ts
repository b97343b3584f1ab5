import { createTestApp, eventually, type ApiResponse, type TestApp } from '@ris/testing';

const statusAndCode = (res: ApiResponse) => [res.status, res.body?.error?.code];
const sum = (buckets: Array<Record<string, number>>, field: string) => buckets.reduce((total, b) => total + b[field], 0);

// The incentive engine's series, kept on write per UTC hour and day, read
// through the real gateway after events, adjustments and redemptions.
describe('incentive series (actions and engine figures over time)', () => {
  let app: TestApp;
  let from: string;

  beforeAll(async () => {
    app = await createTestApp('incentive series');
    from = new Date(Date.now() - 3_600_000).toISOString();
    for (const action of [
      { key: 'read', name: 'Read', type: 'STANDARD', coins: 3, xp: 1 },
      { key: 'share', name: 'Share', type: 'STANDARD', coins: 10, tokens: 1, maxRepeats: 1 },
    ]) {
      expect((await app.api.post('/incentives/actions', action)).status).toBe(201);
    }
    expect((await app.api.post('/incentives/events', { userId: 'ann', actionKey: 'read', idempotencyKey: 'r1' })).status).toBe(201);
    // The same key again: a duplicate, not an event.
    expect((await app.api.post('/incentives/events', { userId: 'ann', actionKey: 'read', idempotencyKey: 'r1' })).status).toBe(200);
    const bulk = await app.api.post('/incentives/events/bulk', {
      events: [
        { userId: 'ann', actionKey: 'read' },
        { userId: 'bob', actionKey: 'read' },
        { userId: 'bob', actionKey: 'share' },
        { userId: 'bob', actionKey: 'share' },
      ],
    });
    expect(bulk.body.results.map((r: { reason: string | null }) => r.reason)).toEqual([null, null, null, 'MAX_REPEATS']);
    expect((await app.api.post('/incentives/balances/cat/adjustments', { coins: 100, xp: 5, note: 'Welcome' })).status).toBe(201);
    const item = (await app.api.post('/incentives/catalog', { name: 'Mug', coinCost: 40, published: true })).body.item;
    const kept = await app.api.post('/incentives/redeem', { userId: 'cat', itemId: item.id });
    const refunded = await app.api.post('/incentives/redeem', { userId: 'cat', itemId: item.id });
    expect([kept.status, refunded.status]).toEqual([201, 201]);
    expect((await app.api.patch(`/incentives/redemptions/${refunded.body.redemption.id}`, { status: 'CANCELLED' })).status).toBe(200);
  });

  it("answers an action's events and payouts per hour, every bucket of the range", async () => {
    // Counts land a moment after the writes (a busy bucket is written at most four times a second).
    const res = await eventually(
      () => app.api.get(`/incentives/actions/read/timeseries?interval=hour&from=${encodeURIComponent(from)}`),
      (r) => r.body.buckets?.length >= 1 && sum(r.body.buckets, 'events') === 3,
      10_000,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ actionKey: 'read', interval: 'hour', from: expect.stringMatching(/:00:00\.000Z$/), to: expect.any(String) });
    expect(res.body.buckets.length).toBeGreaterThanOrEqual(1);
    expect(res.body.buckets[0]).toEqual({ start: res.body.from, events: expect.any(Number), rewardedEvents: expect.any(Number), coins: expect.any(Number), xp: expect.any(Number), tokens: expect.any(Number) });
    expect(['events', 'rewardedEvents', 'coins', 'xp', 'tokens'].map((f) => sum(res.body.buckets, f))).toEqual([3, 3, 9, 3, 0]);
    const share = await eventually(
      () => app.api.get(`/incentives/actions/share/timeseries?from=${encodeURIComponent(from)}`),
      (r) => r.body.buckets !== undefined && sum(r.body.buckets, 'events') === 2,
      10_000,
    );
    expect([share.body.interval, ['events', 'rewardedEvents', 'coins', 'tokens'].map((f) => sum(share.body.buckets, f))]).toEqual(['day', [2, 1, 10, 1]]);
  });

  it("answers the engine's figures per day with their totals over the range", async () => {
    // Counts land a moment after the writes are answered, each figure on its
    // own: 40 redeemed with both redemptions counted is only the final state
    // (one counted reads 40 too, both before the refund read 80).
    const res = await eventually(
      () => app.api.get(`/incentives/stats/timeseries?interval=day&from=${encodeURIComponent(from)}`),
      (r) => r.body.totals?.coinsRedeemed === 40 && r.body.totals?.redemptions === 2 && r.body.totals?.events === 5,
      10_000,
    );
    expect(res.status).toBe(200);
    expect(res.body.totals).toEqual({
      events: 5,
      activeUsers: 2,
      // 3 reads × 3, one share 10, the adjustment 100.
      coinsIssued: 119,
      coinsRedeemed: 40,
      tokensIssued: 1,
      tokensRedeemed: 0,
      xpIssued: 3 + 5,
      redemptions: 2,
      // Nothing lapsed or reversed here (incentive-expiry-pending counts those).
      coinsExpired: 0,
      tokensExpired: 0,
      coinsReversed: 0,
      tokensReversed: 0,
    });
    for (const field of ['events', 'coinsIssued', 'coinsRedeemed', 'redemptions']) expect([field, sum(res.body.buckets, field)]).toEqual([field, res.body.totals[field]]);
    const hours = await app.api.get(`/incentives/stats/timeseries?interval=hour&from=${encodeURIComponent(from)}`);
    expect([hours.body.interval, hours.body.totals.events, hours.body.totals.activeUsers]).toEqual(['hour', 5, 2]);
  });

  it('answers zeros for a quiet range, 404 for an unknown action, 422 INVALID_RANGE and 400 for bad ranges', async () => {
    const quiet = await app.api.get('/incentives/stats/timeseries?interval=day&from=2030-01-01T00:00:00Z&to=2030-01-03T00:00:00Z');
    expect([quiet.body.buckets.length, quiet.body.totals.events, quiet.body.buckets[1].start]).toEqual([2, 0, '2030-01-02T00:00:00.000Z']);
    expect(statusAndCode(await app.api.get('/incentives/actions/nope/timeseries'))).toEqual([404, 'NOT_FOUND']);
    expect(statusAndCode(await app.api.get('/incentives/stats/timeseries?interval=hour&from=2030-01-01T00:00:00Z&to=2030-03-01T00:00:00Z'))).toEqual([422, 'INVALID_RANGE']);
    expect(statusAndCode(await app.api.get('/incentives/actions/read/timeseries?from=2030-01-02T00:00:00Z&to=2030-01-01T00:00:00Z'))).toEqual([422, 'INVALID_RANGE']);
    expect(statusAndCode(await app.api.get('/incentives/stats/timeseries?interval=week'))).toEqual([400, 'VALIDATION_ERROR']);
    // Nothing of another app.
    const other = await createTestApp('incentive series other');
    const theirs = await other.api.get(`/incentives/stats/timeseries?from=${encodeURIComponent(from)}`);
    expect(theirs.body.totals.events).toBe(0);
    expect(statusAndCode(await other.api.get('/incentives/actions/read/timeseries'))).toEqual([404, 'NOT_FOUND']);
  });
});
