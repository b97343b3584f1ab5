import { createTestApp, type TestApp } from '@ris/testing';

// GET /incentives/events: each event says how many repeats of its key were answered from it.
describe('incentive events: duplicates answered from an event', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp('event duplicates');
    expect((await app.api.post('/incentives/actions', { key: 'order', name: 'Order paid', type: 'STANDARD', coins: 5 })).status).toBe(201);
  });

  const eventsOf = async (userId: string) => (await app.api.get(`/incentives/events?userId=${userId}`)).body.events as Array<{ idempotencyKey: string | null; duplicates: number }>;

  it('counts every repeat of an idempotencyKey: one by one, inside a bulk call, and racing', async () => {
    const body = { userId: 'ann', actionKey: 'order', idempotencyKey: 'order-1234' };
    expect((await app.api.post('/incentives/events', body)).status).toBe(201);
    expect((await app.api.post('/incentives/events', { userId: 'ann', actionKey: 'order' })).status).toBe(201);
    expect([(await app.api.post('/incentives/events', body)).status, (await app.api.post('/incentives/events', body)).status]).toEqual([200, 200]);
    const bulk = await app.api.post('/incentives/events/bulk', { events: [body, body] });
    expect(bulk.body.results.map((r: { duplicate: boolean }) => r.duplicate)).toEqual([true, true]);
    const racing = await Promise.all(Array.from({ length: 5 }, () => app.api.post('/incentives/events', body)));
    expect(racing.map((r) => r.body.duplicate)).toEqual([true, true, true, true, true]);

    const events = await eventsOf('ann');
    expect(events.map((e) => [e.idempotencyKey, e.duplicates])).toEqual([
      [null, 0],
      ['order-1234', 9],
    ]);
    // Still one event and one reward.
    expect((await app.api.get('/incentives/balances/ann')).body.balance.coins).toBe(10);
  });
});
