import { Code } from '@connectrpc/connect';
import { uniqueName } from '@ris/testing';
import type { IncentiveModules } from '../incentive-modules';
import { engineOnTestDatabase, type TestEngine } from '../testing/engine-on-test-database';
import { activeUserModel } from './active-user.model';
import { incentiveBucketModel } from './incentive-bucket.model';
import { entryFigures, eventFigures } from './incentive-series';
import { rebuildSeries } from './series-rebuild';
import type { EventInput } from '../events/record-events';
import { atTheEdge } from '../testing/at-the-edge';

describe('incentive series: the figures', () => {
  const entry = (reason: string, coins: number, fields: Record<string, unknown> = {}) =>
    ({ reason, sourceId: 'src', coins, xp: 0, tokens: 0, ...fields }) as Parameters<typeof entryFigures>[0][number];

  it('counts earnings and grants as issued, redemption debits less their refunds as redeemed', () => {
    expect(
      entryFigures([
        entry('ACTION_REWARD', 10, { xp: 5, tokens: 1 }),
        entry('LEVEL_REWARD', 20),
        entry('MILESTONE_REWARD', 0, { xp: 7 }),
        entry('ADJUSTMENT', 3, { cause: 'ADJUSTMENT' }),
        // What an adjustment or a recorded score takes away is not "issued" back.
        entry('ADJUSTMENT', -50, { cause: 'ADJUSTMENT', xp: -5 }),
        entry('SCORE_SET', 4, { xp: -1 }),
        entry('DEBIT', -30, { tokens: -2, sourceId: 'rdm_1:debit' }),
        entry('DEBIT', -8, { cause: 'MARKETPLACE_REDEMPTION' }),
        entry('CREDIT', 30, { tokens: 2, sourceId: 'rdm_1:refund' }),
      ]),
    ).toEqual({ coinsIssued: 37, xpIssued: 12, tokensIssued: 1, coinsRedeemed: 8, tokensRedeemed: 0, redemptions: 2 });
    // A refund alone, in its own bucket: net negative.
    expect(entryFigures([entry('CREDIT', 30, { cause: 'REFUND' })])).toEqual({ coinsRedeemed: -30 });
  });

  it("counts an event, and what it paid out when it was rewarded", () => {
    const result = (rewarded: { coins: number; xp: number; tokens: number } | null) => ({ result: { rewarded } }) as Parameters<typeof eventFigures>[0];
    expect(eventFigures(result({ coins: 5, xp: 0, tokens: 2 }))).toEqual({ events: 1, rewardedEvents: 1, coins: 5, tokens: 2 });
    expect(eventFigures(result(null))).toEqual({ events: 1 });
  });
});

// Kept on write against the real database: one increment per bucket for a call's events, read back as series.
describe('incentive series (real MongoDB and Redis)', () => {
  jest.setTimeout(60_000);
  let test: TestEngine;
  let db: TestEngine['db'];
  let logger: TestEngine['logger'];
  let engine: IncentiveModules;
  const appId = uniqueName('app');

  beforeAll(async () => {
    test = await engineOnTestDatabase('incentive_series');
    ({ db, logger, engine } = test);
    await engine.actions.create(appId, { key: 'post', name: 'Post', type: 'STANDARD', coins: 5, xp: 2, tokens: 0, cooldownSeconds: 0, maxRepeats: null, enabled: true, description: null });
    await engine.actions.create(appId, { key: 'once', name: 'Once', type: 'STANDARD', coins: 1, xp: 0, tokens: 1, cooldownSeconds: 0, maxRepeats: 1, enabled: true, description: null });
  }, 60_000);

  afterAll(() => test.close());

  const event = (userId: string, actionKey: string, idempotencyKey: string | null = null): EventInput => ({
    userId,
    actionKey,
    idempotencyKey,
    metadata: null,
    source: 'API',
    sourceEventId: null,
  });
  const lastHour = () => {
    const to = new Date(Date.now() + 1);
    return [new Date(to.getTime() - 3_600_000), to] as const;
  };
  const sum = (buckets: Array<Record<string, unknown>>, field: string) => buckets.reduce((total, b) => total + (b[field] as number), 0);

  it("counts a call's events with one increment per bucket, and reads them back per action and for the app", async () => {
    const adds = jest.spyOn((engine.series as unknown as { buckets: { add: (...args: unknown[]) => Promise<void> } }).buckets, 'add');
    const outcomes = await engine.recorder.record(appId, [
      event('ann', 'post', 'k1'),
      event('ann', 'post'),
      event('bob', 'post'),
      event('bob', 'once'),
      event('bob', 'once'),
      // The same key again in the call: a duplicate, not an event.
      event('ann', 'post', 'k1'),
    ]);
    expect(outcomes.every((o) => !(o instanceof Error))).toBe(true);
    await engine.series.flushed();
    const actionWrites = adds.mock.calls.map(([, id]) => id as string).filter((id) => id.includes(':action:'));
    // The two actions' hour and day: one increment each for the whole call.
    expect(actionWrites.sort()).toEqual([...new Set(actionWrites)].sort());
    expect(actionWrites).toHaveLength(4);
    adds.mockRestore();
    // A duplicate of an earlier call is not counted either.
    await engine.recorder.record(appId, [event('ann', 'post', 'k1')]);
    // The counts land a moment after the writes are answered.
    await engine.series.flushed();

    const [from, to] = lastHour();
    const post = await engine.series.actionSeries(appId, 'post', 'HOUR', from, to);
    expect([sum(post.buckets, 'events'), sum(post.buckets, 'rewardedEvents'), sum(post.buckets, 'coins'), sum(post.buckets, 'xp')]).toEqual([3, 3, 15, 6]);
    const once = await engine.series.actionSeries(appId, 'once', 'DAY', from, to);
    expect(['events', 'rewardedEvents', 'coins', 'tokens'].map((field) => sum(once.buckets, field))).toEqual([2, 1, 1, 1]);

    const engineSeries = await engine.series.engineSeries(appId, 'HOUR', from, to);
    expect(engineSeries.totals).toMatchObject({ events: 5, activeUsers: 2, coinsIssued: 16, tokensIssued: 1, xpIssued: 6, redemptions: 0 });
    expect(sum(engineSeries.buckets, 'activeUsers')).toBe(2);
  });

  it('counts movements: adjustments issued, redemption debits and refunds redeemed, each user active once per bucket', async () => {
    await engine.movements.adjust(appId, { userId: 'cat', coins: 40, tokens: 2, xp: 9, note: 'Grant', operationKey: '' });
    await engine.movements.debit(appId, { userId: 'cat', operationId: 'rdm_s:debit', coins: 30, tokens: 2, description: null, cause: 'CATALOG_REDEMPTION' });
    await engine.movements.credit(appId, { userId: 'cat', operationId: 'rdm_s:refund', coins: 30, tokens: 2, description: null, cause: 'REFUND' });
    await engine.movements.debit(appId, { userId: 'cat', operationId: 'mkr_s:debit', coins: 10, tokens: 0, description: null, cause: 'MARKETPLACE_REDEMPTION' });
    await engine.recorder.record(appId, [event('ann', 'post')]);
    await engine.series.flushed();
    const [from, to] = lastHour();
    const { totals } = await engine.series.engineSeries(appId, 'DAY', from, to);
    expect(totals).toEqual({
      events: 6,
      // ann again: still two users; cat moved no event.
      activeUsers: 2,
      coinsIssued: 16 + 5 + 40,
      tokensIssued: 1 + 2,
      xpIssued: 6 + 2 + 9,
      coinsRedeemed: 10,
      tokensRedeemed: 0,
      redemptions: 2,
      // Nothing expired or reversed here (expiry-pending e2e counts those).
      coinsExpired: 0,
      tokensExpired: 0,
      coinsReversed: 0,
      tokensReversed: 0,
    });
  });

  it('recounts the buckets from the events and the ledger: silent on what the writes kept, restores what was lost', async () => {
    expect(await rebuildSeries(db, logger, { appId, fix: false, settleMs: 0 })).toMatchObject({ drifted: [], missingMarkers: 0 });
    const [from, to] = lastHour();
    const before = await engine.series.engineSeries(appId, 'HOUR', from, to);
    const markers = await activeUserModel(db).countDocuments({ appId });
    // A release before the series, or a crash between a write and its increments.
    await incentiveBucketModel(db).deleteMany({ appId });
    await activeUserModel(db).deleteMany({ appId });
    const report = await rebuildSeries(db, logger, { appId, fix: true, settleMs: 10 });
    expect([report.drifted.length > 0, report.drifted.every((d) => d.fixed && d.stored === 0), report.missingMarkers]).toEqual([true, true, markers]);
    expect(await engine.series.engineSeries(appId, 'HOUR', from, to)).toEqual(before);
    expect(await rebuildSeries(db, logger, { appId, fix: false, settleMs: 0 })).toMatchObject({ drifted: [], missingMarkers: 0 });
  });

  it('answers zeros for a quiet range, 404 for an unknown action, INVALID_RANGE for a bad range', async () => {
    const quiet = await engine.series.engineSeries(appId, 'DAY', new Date('2030-01-01T00:00:00Z'), new Date('2030-01-03T00:00:00Z'));
    expect([quiet.buckets.length, quiet.totals.events, quiet.totals.activeUsers]).toEqual([2, 0, 0]);
    await expect(atTheEdge(engine.series.actionSeries(appId, 'nope', 'DAY', ...lastHour()))).rejects.toMatchObject({ code: Code.NotFound });
    await expect(atTheEdge(engine.series.actionSeries('app_other', 'post', 'DAY', ...lastHour()))).rejects.toMatchObject({ code: Code.NotFound });
    const [from] = lastHour();
    await expect(atTheEdge(engine.series.engineSeries(appId, 'HOUR', from, new Date(from.getTime() + 745 * 3_600_000)))).rejects.toMatchObject({
      code: Code.FailedPrecondition,
    });
  });
});
