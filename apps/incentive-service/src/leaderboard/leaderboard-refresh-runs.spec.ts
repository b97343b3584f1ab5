import { uniqueName } from '@ris/testing';
import type { IncentiveModules } from '../incentive-modules';
import { engineOnTestDatabase, type TestEngine } from '../testing/engine-on-test-database';
import { STALE_AFTER_MS, runView } from './leaderboard-refresh-runs';
import { refreshRunModel, type RefreshRunDoc } from './refresh-run.model';

describe('leaderboard refresh runs: how a run reads', () => {
  const started = new Date('2031-01-01T00:00:00Z');
  const run = (heartbeatAt: Date): RefreshRunDoc => ({
    _id: 'lbr_1',
    appId: 'app_1',
    slot: 'RUNNING',
    status: 'RUNNING',
    usersDone: 500,
    usersTotal: 1000,
    startedAt: started,
    heartbeatAt,
    finishedAt: null,
    durationMs: null,
    error: null,
  });

  it('reads a RUNNING run whose heartbeat stopped as FAILED, finished when it last beat', () => {
    const beat = new Date(started.getTime() + 4_000);
    expect(runView(run(beat), new Date(beat.getTime() + STALE_AFTER_MS))).toMatchObject({ status: 'RUNNING', finishedAt: null });
    expect(runView(run(beat), new Date(beat.getTime() + STALE_AFTER_MS + 1))).toMatchObject({
      status: 'FAILED',
      usersDone: 500,
      finishedAt: beat,
      durationMs: 4_000,
      error: expect.stringContaining('30 s'),
    });
  });
});

// Against the real database and Redis: the run record kept per batch, one run per app, a dead run's place taken.
describe('leaderboard refresh runs (real MongoDB and Redis)', () => {
  jest.setTimeout(60_000);
  let test: TestEngine;
  let db: TestEngine['db'];
  let engine: IncentiveModules;
  const appId = uniqueName('app');

  beforeAll(async () => {
    test = await engineOnTestDatabase('refresh_runs');
    ({ db, engine } = test);
    await engine.actions.create(appId, { key: 'play', name: 'Play', type: 'STANDARD', coins: 1, xp: 1, tokens: 0, cooldownSeconds: 0, maxRepeats: null, enabled: true, description: null });
    const events = Array.from({ length: 1100 }, (_, i) => ({ userId: `u${i}`, actionKey: 'play', idempotencyKey: null, metadata: null, source: 'API' as const, sourceEventId: null }));
    await engine.recorder.record(appId, events.slice(0, 600));
    await engine.recorder.record(appId, events.slice(600));
  }, 120_000);

  afterAll(async () => {
    await engine.refreshRuns.stop();
    await test.close();
  });

  it('records the progress per batch of users and the outcome', async () => {
    const progress: number[] = [];
    const original = engine.leaderboard.refresh.bind(engine.leaderboard);
    const spy = jest.spyOn(engine.leaderboard, 'refresh').mockImplementation((app, onBatch) =>
      original(app, async (done) => {
        progress.push((await engine.refreshRuns.get(appId, runId)).usersDone);
        await onBatch?.(done);
      }),
    );
    const { run, started } = await engine.refreshRuns.start(appId, '');
    const runId = run._id;
    expect([started, run.status]).toEqual([true, 'RUNNING']);
    await engine.refreshRuns.stop();
    spy.mockRestore();
    // Each batch's progress was stored before the next: 0, 500, 1000 seen before the batches of 500, 500 and 100 were recorded.
    expect(progress).toEqual([0, 500, 1000]);
    expect(await engine.refreshRuns.get(appId, runId)).toMatchObject({ status: 'SUCCEEDED', usersDone: 1100, usersTotal: 1100, error: null });
  });

  it('takes the place of a run whose process died, which then reads and stays FAILED', async () => {
    const longAgo = new Date(Date.now() - 60_000);
    await refreshRunModel(db).create({
      _id: 'lbr_dead',
      appId,
      slot: 'RUNNING',
      status: 'RUNNING',
      usersDone: 500,
      usersTotal: 1100,
      startedAt: longAgo,
      heartbeatAt: longAgo,
      finishedAt: null,
      durationMs: null,
      error: null,
    });
    expect((await engine.refreshRuns.get(appId, 'lbr_dead')).status).toBe('FAILED');
    const { run, started } = await engine.refreshRuns.start(appId, 'op-after-crash');
    expect([started, run._id]).toEqual([true, 'lbr_op-after-crash']);
    // While it runs, a start answers it.
    const again = await engine.refreshRuns.start(appId, '');
    expect([again.started, again.run._id]).toEqual([false, 'lbr_op-after-crash']);
    await engine.refreshRuns.stop();
    const dead = await refreshRunModel(db).findById('lbr_dead').lean<RefreshRunDoc>();
    expect(dead).toMatchObject({ status: 'FAILED', slot: 'lbr_dead', finishedAt: longAgo });
    const runs = await engine.refreshRuns.list(appId, { page: 1, limit: 10 });
    expect(runs.items.map((r) => [r._id, r.status])).toEqual([
      ['lbr_op-after-crash', 'SUCCEEDED'],
      [expect.stringMatching(/^lbr_/), 'SUCCEEDED'],
      ['lbr_dead', 'FAILED'],
    ]);
  });
});
