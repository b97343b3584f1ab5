import { createTestApp, type ApiResponse, type TestApp } from '@ris/testing';
import { expectStatus } from './support/referral-scenario';

const HOUR_MS = 3_600_000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const statusAndCode = (res: ApiResponse) => [res.status, res.body?.error?.code];

// Boosts (POST /incentives/boosts): time-boxed multipliers of what events
// earn, through the real gateway and incentive service.
describe('boosts', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp('boosts');
    for (const action of [
      { key: 'order', name: 'Order', coins: 7, xp: 10, tokens: 2 },
      { key: 'review', name: 'Review', coins: 5, xp: 3 },
    ]) {
      expectStatus(await app.api.post('/incentives/actions', { type: 'STANDARD', ...action }), [201], 'action');
    }
  });

  const boost = async (body: Record<string, unknown>) =>
    expectStatus(await app.api.post('/incentives/boosts', { startsAt: at(-HOUR_MS), endsAt: at(HOUR_MS), ...body }), [201], 'boost').body.boost;
  const event = async (userId: string, actionKey: string) =>
    expectStatus(await app.api.post('/incentives/events', { userId, actionKey }), [201], 'event').body;

  it('multiplies coins and XP inside the window (rounded down, tokens as they are), the largest of overlapping boosts winning', async () => {
    expect((await event('no-boost-yet', 'order')).boost).toBeNull();
    const orders = await boost({ name: 'Order week', multiplier: 1.5, actionKeys: ['order'] });
    expect(orders).toMatchObject({ name: 'Order week', multiplier: 1.5, actionKeys: ['order'], userIds: [], state: 'ACTIVE' });

    const boosted = await event('ana', 'order');
    // 7 × 1.5 = 10.5 → 10; 10 × 1.5 = 15; tokens are not multiplied.
    expect(boosted.rewarded).toEqual({ coins: 10, xp: 15, tokens: 2 });
    expect(boosted.boost).toEqual({ id: orders.id, name: 'Order week', multiplier: 1.5 });
    // Another action is not in its scope.
    expect((await event('ana', 'review')).rewarded).toEqual({ coins: 5, xp: 3, tokens: 0 });

    // A larger boost of every action overlaps it: the larger wins, for both actions.
    const weekend = await boost({ name: 'Double weekend', multiplier: 2 });
    expect((await event('ana', 'order')).rewarded).toEqual({ coins: 14, xp: 20, tokens: 2 });
    const review = await event('ana', 'review');
    expect(review.rewarded).toEqual({ coins: 10, xp: 6, tokens: 0 });
    expect(review.boost.id).toBe(weekend.id);

    // Only some users: a ×3 for VIPs wins over the ×2 for them only.
    await boost({ name: 'VIP', multiplier: 3, userIds: ['vip'] });
    expect((await event('vip', 'review')).rewarded.coins).toBe(15);
    expect((await event('ana', 'review')).rewarded.coins).toBe(10);

    // The ledger entry names the boost, and the balance is the sum of the ledger.
    const txns = (await app.api.get('/incentives/balances/ana/transactions?limit=100')).body.transactions as Array<{ coins: number; boost: { id: string } | null }>;
    expect(txns.filter((t) => t.boost?.id === weekend.id)).toHaveLength(3);
    expect((await app.api.get('/incentives/balances/ana')).body.balance.coins).toBe(txns.reduce((sum, t) => sum + t.coins, 0));
  });

  it('lists and gets boosts by state, and deletes one only before it starts', async () => {
    const later = await boost({ name: 'Next month', multiplier: 1.25, startsAt: at(24 * HOUR_MS), endsAt: at(48 * HOUR_MS) });
    expect(later.state).toBe('SCHEDULED');
    // Not started: events earn under the active ones only.
    expect((await event('bo', 'order')).boost.id).not.toBe(later.id);
    const scheduled = await app.api.get('/incentives/boosts?state=SCHEDULED');
    expect(scheduled.body.boosts.map((b: { id: string }) => b.id)).toEqual([later.id]);
    const active = await app.api.get('/incentives/boosts?state=ACTIVE');
    expect(active.body.boosts.length).toBeGreaterThanOrEqual(3);
    expect((await app.api.get(`/incentives/boosts/${later.id}`)).body.boost).toMatchObject({ id: later.id, state: 'SCHEDULED' });

    const running = active.body.boosts[0] as { id: string };
    expect(statusAndCode(await app.api.delete(`/incentives/boosts/${running.id}`))).toEqual([422, 'BOOST_STARTED']);
    expect((await app.api.delete(`/incentives/boosts/${later.id}`)).status).toBe(204);
    expect(statusAndCode(await app.api.get(`/incentives/boosts/${later.id}`))).toEqual([404, 'NOT_FOUND']);
  });

  it('refuses a multiplier out of range and a window that is not one', async () => {
    expect((await app.api.post('/incentives/boosts', { name: 'x', multiplier: 1, startsAt: at(0), endsAt: at(HOUR_MS) })).status).toBe(400);
    expect((await app.api.post('/incentives/boosts', { name: 'x', multiplier: 10.5, startsAt: at(0), endsAt: at(HOUR_MS) })).status).toBe(400);
    expect(statusAndCode(await app.api.post('/incentives/boosts', { name: 'x', multiplier: 2, startsAt: at(HOUR_MS), endsAt: at(0) }))).toEqual([422, 'INVALID_RANGE']);
    expect(statusAndCode(await app.api.post('/incentives/boosts', { name: 'x', multiplier: 2, startsAt: at(-2 * HOUR_MS), endsAt: at(-HOUR_MS) }))).toEqual([422, 'INVALID_RANGE']);
  });
});
