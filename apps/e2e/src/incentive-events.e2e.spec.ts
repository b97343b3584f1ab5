import { createTestApp, waitForEvents, type TestApp } from '@ris/testing';
import { ledgerAgreesWithBalance } from './support/ledger-agreement';
import { retryRateLimited } from './support/rate-limited-calls';

const action = (key: string, extra: Record<string, unknown> = {}) => ({ key, name: `Action ${key}`, type: 'STANDARD', coins: 10, xp: 5, ...extra });

describe('incentive actions and events', () => {
  let app: TestApp;
  let other: TestApp;

  beforeAll(async () => {
    [app, other] = await Promise.all([createTestApp('incentive events'), createTestApp('incentive events other')]);
  });

  describe('actions', () => {
    it('creates, gets, lists and updates actions', async () => {
      const created = await app.api.post('/incentives/actions', action('login', { tokens: 1, cooldown: 60, maxRepeats: 3, description: 'Daily login' }));
      expect(created.status).toBe(201);
      expect(created.body.action).toEqual({
        key: 'login',
        name: 'Action login',
        type: 'STANDARD',
        coins: 10,
        xp: 5,
        tokens: 1,
        cooldown: 60,
        maxRepeats: 3,
        enabled: true,
        description: 'Daily login',
        pendingDays: 0,
        createdAt: expect.stringMatching(/Z$/),
        updatedAt: expect.stringMatching(/Z$/),
      });
      const defaults = await app.api.post('/incentives/actions', { key: 'share', name: 'Share', type: 'REFERRAL_CLICK' });
      expect(defaults.body.action).toMatchObject({ coins: 0, xp: 0, tokens: 0, cooldown: 0, maxRepeats: null, enabled: true, description: null });

      expect((await app.api.get('/incentives/actions/login')).body.action.key).toBe('login');
      const list = await app.api.get('/incentives/actions?limit=1');
      expect(list.status).toBe(200);
      expect(list.body.actions).toHaveLength(1);
      expect(list.body.pagination).toEqual({ page: 1, limit: 1, totalItems: 2, totalPages: 2 });
      expect((await app.api.get('/incentives/actions?type=REFERRAL_CLICK')).body.actions.map((a: { key: string }) => a.key)).toEqual(['share']);
      expect((await app.api.get('/incentives/actions?enabled=false')).body.actions).toEqual([]);

      const patched = await app.api.patch('/incentives/actions/login', { coins: 20, maxRepeats: null, enabled: false });
      expect(patched.status).toBe(200);
      expect(patched.body.action).toMatchObject({ key: 'login', coins: 20, xp: 5, maxRepeats: null, enabled: false });
      await app.api.patch('/incentives/actions/login', { enabled: true });
    });

    it('refuses duplicates, bad values and unknown keys', async () => {
      const dup = await app.api.post('/incentives/actions', action('login'));
      expect(dup.status).toBe(409);
      expect(dup.body.error.code).toBe('ALREADY_EXISTS');
      for (const bad of [
        { name: 'x', type: 'STANDARD' },
        action('bad key!'),
        action('t', { type: 'NOPE' }),
        action('n', { coins: -1 }),
        action('f', { xp: 1.5 }),
        action('c', { cooldown: -5 }),
        action('m', { maxRepeats: 2.5 }),
        action('e', { name: '' }),
      ]) {
        const res = await app.api.post('/incentives/actions', bad);
        expect([res.status, res.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
      }
      expect((await app.api.patch('/incentives/actions/login', { tokens: -1 })).status).toBe(400);
      expect((await app.api.get('/incentives/actions/missing')).status).toBe(404);
      expect((await app.api.patch('/incentives/actions/missing', { coins: 1 })).status).toBe(404);
      expect((await app.api.get('/incentives/actions?enabled=maybe')).status).toBe(400);
    });
  });

  describe('events', () => {
    it('rewards an event with the documented result body', async () => {
      await app.api.post('/incentives/actions', action('lesson', { tokens: 2 }));
      const res = await app.api.post('/incentives/events', { userId: 'ada', actionKey: 'lesson', metadata: { lesson: 7, tags: ['x'] } });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        event: { id: expect.stringMatching(/^evt_/), userId: 'ada', actionKey: 'lesson', createdAt: expect.stringMatching(/Z$/) },
        rewarded: { coins: 10, xp: 5, tokens: 2 },
        reason: null,
        balance: { coins: 10, xp: 5, tokens: 2, level: 0 },
        levelUp: null,
        badgesAwarded: [],
        milestonesReached: [],
        duplicate: false,
        streaksExtended: [],
        boost: null,
        pendingUntil: null,
      });
      const processed = await waitForEvents('incentive.event.processed', (e) => e.data.eventId === res.body.event.id, 1);
      expect(processed[0]).toMatchObject({
        appId: app.appId,
        data: { userId: 'ada', actionKey: 'lesson', rewarded: { coins: 10, xp: 5, tokens: 2 }, reason: null, balance: { coins: 10, xp: 5, tokens: 2 } },
      });
    });

    it('records but does not reward inside the cooldown, past maxRepeats or when disabled', async () => {
      await app.api.post('/incentives/actions', action('hourly', { cooldown: 3600 }));
      await app.api.post('/incentives/actions', action('twice', { maxRepeats: 2 }));
      await app.api.post('/incentives/actions', action('off', { enabled: false }));
      const post = (actionKey: string) => app.api.post('/incentives/events', { userId: 'rules', actionKey });
      expect((await post('hourly')).body.reason).toBeNull();
      const cooling = await post('hourly');
      expect(cooling.status).toBe(201);
      expect(cooling.body).toMatchObject({ rewarded: null, reason: 'COOLDOWN', balance: { coins: 10 } });
      await post('twice');
      await post('twice');
      expect((await post('twice')).body).toMatchObject({ rewarded: null, reason: 'MAX_REPEATS', balance: { coins: 30 } });
      expect((await post('off')).body).toMatchObject({ rewarded: null, reason: 'ACTION_DISABLED' });
      const listed = await app.api.get('/incentives/events?userId=rules&limit=100');
      expect(listed.body.events.map((e: { reason: string | null }) => e.reason).sort()).toEqual(
        ['ACTION_DISABLED', 'COOLDOWN', 'MAX_REPEATS', null, null, null].sort(),
      );
    });

    it('answers a repeated idempotencyKey with the first result (200, duplicate) and changes nothing', async () => {
      const body = { userId: 'idem', actionKey: 'lesson', idempotencyKey: 'order-1' };
      const first = await app.api.post('/incentives/events', body);
      const again = await app.api.post('/incentives/events', { ...body, metadata: { retried: true } });
      expect(first.status).toBe(201);
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ ...first.body, duplicate: true });
      // Keys are per user: another user's same key is a new event.
      const otherUser = await app.api.post('/incentives/events', { ...body, userId: 'idem-2' });
      expect(otherUser.status).toBe(201);
      expect((await app.api.get('/incentives/balances/idem')).body.balance.coins).toBe(10);
    });

    it('refuses bad events, unknown actions and referral action types', async () => {
      for (const bad of [{}, { userId: 'x' }, { userId: '', actionKey: 'lesson' }, { userId: 'x', actionKey: 'lesson', metadata: [1] }]) {
        expect((await app.api.post('/incentives/events', bad)).status).toBe(400);
      }
      const unknown = await app.api.post('/incentives/events', { userId: 'x', actionKey: 'nope' });
      expect([unknown.status, unknown.body.error.code]).toEqual([404, 'NOT_FOUND']);
      const referral = await app.api.post('/incentives/events', { userId: 'x', actionKey: 'share' });
      expect([referral.status, referral.body.error.code]).toEqual([422, 'ACTION_NOT_POSTABLE']);
      expect(referral.body.error.message).toMatch(/referral/);
    });

    it('takes up to 1000 events in bulk, in input order, one bad event not failing the others', async () => {
      await app.api.post('/incentives/actions', action('bulk', { maxRepeats: 2 }));
      const res = await app.api.post('/incentives/events/bulk', {
        events: [
          { userId: 'b1', actionKey: 'bulk' },
          { userId: 'b2', actionKey: 'bulk', idempotencyKey: 'k' },
          { userId: 'b1', actionKey: 'missing' },
          { userId: 'b1' },
          { userId: 'b1', actionKey: 'bulk' },
          { userId: 'b2', actionKey: 'bulk', idempotencyKey: 'k' },
          { userId: 'b1', actionKey: 'bulk' },
        ],
      });
      expect(res.status).toBe(200);
      const r = res.body.results;
      expect(r).toHaveLength(7);
      expect(r[0]).toMatchObject({ rewarded: { coins: 10 }, balance: { coins: 10 }, duplicate: false });
      expect(r[1]).toMatchObject({ rewarded: { coins: 10 }, duplicate: false });
      expect(r[2].error).toMatchObject({ code: 'NOT_FOUND' });
      expect(r[3].error).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringContaining('events[3].actionKey') });
      expect(r[4]).toMatchObject({ rewarded: { coins: 10 }, balance: { coins: 20 } });
      expect(r[5]).toEqual({ ...r[1], duplicate: true });
      expect(r[6]).toMatchObject({ rewarded: null, reason: 'MAX_REPEATS', balance: { coins: 20 } });

      expect((await app.api.post('/incentives/events/bulk', { events: [] })).status).toBe(400);
      expect((await app.api.post('/incentives/events/bulk', { events: new Array(1001).fill({ userId: 'x', actionKey: 'bulk' }) })).status).toBe(400);
      const full = await app.api.post('/incentives/events/bulk', {
        events: Array.from({ length: 1000 }, (_, i) => ({ userId: `bulk-${i % 50}`, actionKey: 'lesson' })),
      });
      expect(full.status).toBe(200);
      expect(full.body.results.filter((x: { rewarded?: unknown }) => x.rewarded)).toHaveLength(1000);
      expect((await app.api.get('/incentives/balances/bulk-7')).body.balance.coins).toBe(200);
    }, 120_000);

    it('lists events with userId, actionKey and from/to filters', async () => {
      const before = new Date(Date.now() - 1000).toISOString();
      await app.api.post('/incentives/events', { userId: 'lister', actionKey: 'lesson', idempotencyKey: 'l1', metadata: { n: 1 } });
      await app.api.post('/incentives/events', { userId: 'lister', actionKey: 'hourly' });
      const all = await app.api.get('/incentives/events?userId=lister');
      expect(all.status).toBe(200);
      expect(all.body.pagination.totalItems).toBe(2);
      expect(all.body.events[1]).toEqual({
        id: expect.stringMatching(/^evt_/),
        userId: 'lister',
        actionKey: 'lesson',
        idempotencyKey: 'l1',
        metadata: { n: 1 },
        source: 'API',
        rewarded: { coins: 10, xp: 5, tokens: 2 },
        reason: null,
        duplicates: 0,
        createdAt: expect.stringMatching(/Z$/),
      });
      expect((await app.api.get('/incentives/events?userId=lister&actionKey=hourly')).body.events).toHaveLength(1);
      expect((await app.api.get(`/incentives/events?userId=lister&from=${before}`)).body.events).toHaveLength(2);
      expect((await app.api.get(`/incentives/events?userId=lister&to=${before}`)).body.events).toHaveLength(0);
      expect((await app.api.get('/incentives/events?from=yesterday')).status).toBe(400);
      // A from after to is an empty range, not an error.
      const empty = await app.api.get(`/incentives/events?from=${new Date().toISOString()}&to=${before}`);
      expect([empty.status, empty.body.events, empty.body.pagination.totalItems]).toEqual([200, [], 0]);
      expect((await app.api.get('/incentives/events?limit=101')).status).toBe(400);
    });

    it("keeps apps apart: another app sees none of this app's actions, events or balances", async () => {
      expect((await other.api.get('/incentives/actions')).body.actions).toEqual([]);
      expect((await other.api.get('/incentives/actions/lesson')).status).toBe(404);
      expect((await other.api.post('/incentives/events', { userId: 'ada', actionKey: 'lesson' })).status).toBe(404);
      expect((await other.api.get('/incentives/events')).body.events).toEqual([]);
      expect((await other.api.get('/incentives/balances/ada')).body.balance).toMatchObject({ coins: 0, xp: 0, tokens: 0 });
      // The same key in another app is another action.
      expect((await other.api.post('/incentives/actions', action('lesson'))).status).toBe(201);
    });
  });

  describe('under concurrency', () => {
    it('applies one idempotencyKey once among 50 parallel posts', async () => {
      const racing = await createTestApp('idempotency race');
      await racing.api.post('/incentives/actions', action('once'));
      const body = { userId: 'racer', actionKey: 'once', idempotencyKey: 'same-key' };
      const results = await Promise.all(Array.from({ length: 50 }, () => retryRateLimited(() => racing.api.post('/incentives/events', body))));
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      expect(results.filter((r) => r.status === 200)).toHaveLength(49);
      expect(new Set(results.map((r) => r.body.event.id)).size).toBe(1);
      expect(results.every((r) => r.body.rewarded?.coins === 10)).toBe(true);
      const agreement = await ledgerAgreesWithBalance(racing.api, 'racer');
      expect(agreement).toEqual({ totals: { coins: 10, xp: 5, tokens: 0 }, balance: { coins: 10, xp: 5, tokens: 0 }, gapless: true });
    }, 60_000);

    it('rewards exactly maxRepeats of 100 parallel events of one user', async () => {
      const racing = await createTestApp('max repeats race');
      await racing.api.post('/incentives/actions', action('capped', { maxRepeats: 10, coins: 7, xp: 3 }));
      const results = await Promise.all(
        Array.from({ length: 100 }, () => retryRateLimited(() => racing.api.post('/incentives/events', { userId: 'hot', actionKey: 'capped' }))),
      );
      expect(results.every((r) => r.status === 201)).toBe(true);
      expect(results.filter((r) => r.body.rewarded)).toHaveLength(10);
      expect(results.filter((r) => r.body.reason === 'MAX_REPEATS')).toHaveLength(90);
      const agreement = await ledgerAgreesWithBalance(racing.api, 'hot');
      expect(agreement).toEqual({ totals: { coins: 70, xp: 30, tokens: 0 }, balance: { coins: 70, xp: 30, tokens: 0 }, gapless: true });
    }, 60_000);

    it('gives one reward per cooldown window to parallel events, for every user', async () => {
      const racing = await createTestApp('cooldown race');
      await racing.api.post('/incentives/actions', action('window', { cooldown: 3600 }));
      const users = ['c1', 'c2', 'c3'];
      const results = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          retryRateLimited(() => racing.api.post('/incentives/events', { userId: users[i % 3], actionKey: 'window' })),
        ),
      );
      for (const user of users) {
        const mine = results.filter((r) => r.body.event.userId === user);
        expect(mine.filter((r) => r.body.rewarded)).toHaveLength(1);
        expect(mine.filter((r) => r.body.reason === 'COOLDOWN')).toHaveLength(19);
        const agreement = await ledgerAgreesWithBalance(racing.api, user);
        expect(agreement.totals).toEqual(agreement.balance);
        expect(agreement.balance.coins).toBe(10);
      }
    }, 60_000);

    it('keeps the ledger sum equal to the balance for every user of this file', async () => {
      const { body } = await app.api.get('/incentives/balances?limit=100');
      expect(body.balances.length).toBeGreaterThan(50);
      for (const { userId } of body.balances.slice(0, 15)) {
        const agreement = await ledgerAgreesWithBalance(app.api, userId);
        expect([userId, agreement.totals, agreement.gapless]).toEqual([userId, agreement.balance, true]);
      }
    }, 120_000);
  });
});
