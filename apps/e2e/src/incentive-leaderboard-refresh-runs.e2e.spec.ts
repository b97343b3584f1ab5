import { createTestApp, eventually, type ApiResponse, type TestApp } from '@ris/testing';

const statusAndCode = (res: ApiResponse) => [res.status, res.body?.error?.code];

// POST /incentives/leaderboard/refresh-runs: the boards rebuilt in the background, with progress.
describe('leaderboard refresh runs', () => {
  let app: TestApp;
  const USERS = 700;

  beforeAll(async () => {
    app = await createTestApp('refresh runs');
    expect((await app.api.post('/incentives/actions', { key: 'play', name: 'Play', type: 'STANDARD', coins: 1, xp: 3 })).status).toBe(201);
    for (let from = 0; from < USERS; from += 350) {
      const events = Array.from({ length: 350 }, (_, i) => ({ userId: `player-${from + i}`, actionKey: 'play' }));
      expect((await app.api.post('/incentives/events/bulk', { events })).status).toBe(200);
    }
  }, 120_000);

  /** The run once it is no longer RUNNING. */
  const finished = async (runId: string) =>
    (await eventually(() => app.api.get(`/incentives/leaderboard/refresh-runs/${runId}`), (res) => res.body.run?.status !== 'RUNNING', 60_000)).body.run;

  it('starts one run at a time per app (202, then 200 with that run), which reaches SUCCEEDED with every user written', async () => {
    const [a, b] = await Promise.all([app.api.post('/incentives/leaderboard/refresh-runs'), app.api.post('/incentives/leaderboard/refresh-runs')]);
    expect([a.status, b.status].sort()).toEqual([200, 202]);
    expect(a.body.run.id).toBe(b.body.run.id);
    const started = (a.status === 202 ? a : b).body.run;
    expect(started).toMatchObject({ id: expect.stringMatching(/^lbr_/), status: 'RUNNING', usersDone: 0, finishedAt: null, durationMs: null, error: null });

    const done = await finished(started.id);
    expect(done).toMatchObject({ status: 'SUCCEEDED', usersDone: USERS, usersTotal: USERS, error: null, startedAt: started.startedAt });
    expect(done.durationMs).toBeGreaterThanOrEqual(0);
    expect(Date.parse(done.finishedAt)).toBeGreaterThanOrEqual(Date.parse(done.startedAt));
    // The boards are there again.
    expect((await app.api.get('/incentives/leaderboard?limit=3')).body).toHaveLength(3);

    // Finished: the next start is a new run, listed first.
    const next = await app.api.post('/incentives/leaderboard/refresh-runs');
    expect([next.status, next.body.run.id === started.id]).toEqual([202, false]);
    const list = await app.api.get('/incentives/leaderboard/refresh-runs');
    expect(list.body.runs.map((r: { id: string }) => r.id).slice(0, 2)).toEqual([next.body.run.id, started.id]);
    expect(list.body.pagination.totalItems).toBe(2);
    expect((await finished(next.body.run.id)).status).toBe('SUCCEEDED');
  }, 120_000);

  it('answers a retried start with its Idempotency-Key with the same run', async () => {
    const key = `refresh-${Date.now()}`;
    const first = await app.api.post('/incentives/leaderboard/refresh-runs', undefined, { 'Idempotency-Key': key });
    const again = await app.api.post('/incentives/leaderboard/refresh-runs', undefined, { 'Idempotency-Key': key });
    expect([first.status, again.body.run.id]).toEqual([202, first.body.run.id]);
    expect((await finished(first.body.run.id)).status).toBe('SUCCEEDED');
  }, 90_000);

  it("keeps runs to their app, and leaves the synchronous refresh as it was", async () => {
    const other = await createTestApp('refresh runs other');
    const runs = (await app.api.get('/incentives/leaderboard/refresh-runs')).body.runs;
    expect(statusAndCode(await other.api.get(`/incentives/leaderboard/refresh-runs/${runs[0].id}`))).toEqual([404, 'NOT_FOUND']);
    expect((await other.api.get('/incentives/leaderboard/refresh-runs')).body.runs).toEqual([]);
    const sync = await app.api.post('/incentives/leaderboard/refresh');
    expect(sync.body).toEqual({ refreshed: true, users: USERS, durationMs: expect.any(Number) });
  }, 60_000);
});
