import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { LeaderboardEntry, LeaderboardSnapshot } from '../../../api/types';
import { FakeApi, apiError, page } from '../../../test/fake-api';
import { sessionFor } from '../../../test/fixtures';
import { renderApp } from '../../../test/render-app';
import type { RefreshRun } from '../../../api/types';
import { boardPage, periodOf } from './leaderboard-periods';
import { runPercent } from './refresh-runs';

const entries = (count: number): LeaderboardEntry[] => Array.from({ length: count }, (_, i) => ({ rank: i + 1, userId: `user-${i + 1}`, xp: 10_000 - i * 10, coins: i }));
const snapshot: LeaderboardSnapshot = {
  id: 'snap_1',
  period: 'DAILY',
  periodKey: '2026-11-23',
  startsAt: '2026-11-23T00:00:00.000Z',
  endsAt: '2026-11-24T00:00:00.000Z',
  takenAt: '2026-11-24T00:00:05.000Z',
  totalUsers: 2,
  entries: [
    { rank: 1, userId: 'ana', xp: 300, coins: 40 },
    { rank: 2, userId: 'bob', xp: 120, coins: 5 },
  ],
};

describe('a board in pages', () => {
  it('shows the top 100 the API ranks 25 at a time, a page past the end as the last', () => {
    const board = entries(60);
    expect(boardPage(board, 1).rows.map((e) => e.rank)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(boardPage(board, 3)).toMatchObject({ pagination: { page: 3, totalItems: 60, totalPages: 3 } });
    expect(boardPage(board, 3).rows).toHaveLength(10);
    expect(boardPage(board, 9).pagination.page).toBe(3);
    expect(boardPage([], 1).pagination).toEqual({ page: 1, limit: 25, totalItems: 0, totalPages: 1 });
    expect([periodOf('WEEKLY'), periodOf('YEARLY'), periodOf(null)]).toEqual(['WEEKLY', 'ALL_TIME', 'ALL_TIME']);
  });
});

describe('the leaderboard page', () => {
  it('reads the period’s board as the API ranks it, pages through it, and finds a user outside the top', async () => {
    const api = new FakeApi()
      .on('GET', '/api/v1/incentives/leaderboard', { body: entries(60) })
      .on('GET', '/api/v1/incentives/leaderboard/late', { body: { rank: 412, userId: 'late', xp: 3, coins: 0 } })
      .on('GET', '/api/v1/incentives/leaderboard/nobody', apiError(404, 'NOT_FOUND', 'Not on this board.'))
      .on('GET', '/api/v1/incentives/leaderboard/snapshots', { body: { snapshots: [], pagination: page(0) } })
      .on('GET', '/api/v1/incentives/leaderboard/refresh-runs', { body: { runs: [], pagination: page(0) } });
    const { location } = renderApp('/apps/app_1/leaderboard?period=WEEKLY&page=2', { session: sessionFor('VIEWER'), api });
    const board = await screen.findByRole('table', { name: 'Leaderboard, this week' });
    expect(within(board).getAllByTestId('board-row')[0]).toHaveTextContent('26user-269,750');
    const sent = api.sent('GET', '/api/v1/incentives/leaderboard')[0]!.query;
    expect([sent.get('period'), sent.get('limit')]).toEqual(['WEEKLY', '100']);

    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'User id' }), 'late');
    await user.click(screen.getByRole('button', { name: 'Find position' }));
    expect(await screen.findByRole('status')).toHaveTextContent('late is #412 this week, with 3 XP.');
    expect(location()).toBe('/apps/app_1/leaderboard?period=WEEKLY&userId=late');
    await user.clear(screen.getByRole('textbox', { name: 'User id' }));
    await user.type(screen.getByRole('textbox', { name: 'User id' }), 'nobody{Enter}');
    expect(await screen.findByText(/is not on the board this week/)).toBeInTheDocument();
  });

  it('switches period from its control, and opens a snapshot of a past period from the URL', async () => {
    const api = new FakeApi()
      .on('GET', '/api/v1/incentives/leaderboard', { body: entries(3) })
      .on('GET', '/api/v1/incentives/leaderboard/snapshots', { body: { snapshots: [snapshot], pagination: page(1) } })
      .on('GET', '/api/v1/incentives/leaderboard/refresh-runs', { body: { runs: [], pagination: page(0) } });
    const { location } = renderApp('/apps/app_1/leaderboard?period=DAILY&snapshot=snap_1', { session: sessionFor('VIEWER'), api });
    const drawer = await screen.findByRole('dialog', { name: 'Snapshot 2026-11-23' });
    expect(within(drawer).getAllByTestId('board-row').map((r) => r.textContent)).toEqual(['1ana30040', '2bob1205']);
    await userEvent.click(within(drawer).getByRole('button', { name: 'Close' }));
    await userEvent.click(screen.getByText('All time'));
    await waitFor(() => expect(location()).toBe('/apps/app_1/leaderboard'));
    await waitFor(() => expect(api.sent('GET', '/api/v1/incentives/leaderboard').map((r) => r.query.get('period'))).toEqual(['DAILY', 'ALL_TIME']));
  });

  it("shows the API's 503 while a board is rebuilt", async () => {
    const api = new FakeApi()
      .on('GET', '/api/v1/incentives/leaderboard', apiError(503, 'UNAVAILABLE', 'The leaderboard is being rebuilt; try again shortly.'))
      .on('GET', '/api/v1/incentives/leaderboard/snapshots', { body: { snapshots: [], pagination: page(0) } })
      .on('GET', '/api/v1/incentives/leaderboard/refresh-runs', { body: { runs: [], pagination: page(0) } });
    renderApp('/apps/app_1/leaderboard', { session: sessionFor('VIEWER'), api });
    expect(await screen.findByRole('alert')).toHaveTextContent('The leaderboard is being rebuilt; try again shortly.');
  });

  it('refreshes the boards for a MANAGER and follows the run until it ends, then reads the board again', async () => {
    const run = (overrides: Partial<RefreshRun>): RefreshRun => ({ id: 'run_1', status: 'RUNNING', usersDone: 0, usersTotal: 1000, startedAt: '2026-11-24T10:00:00.000Z', finishedAt: null, durationMs: null, error: null, ...overrides });
    const progress = [run({ usersDone: 500 }), run({ status: 'SUCCEEDED', usersDone: 1000, finishedAt: '2026-11-24T10:00:03.000Z', durationMs: 3000 })];
    let started = false;
    let reads = 0;
    const api = new FakeApi()
      .on('GET', '/api/v1/incentives/leaderboard', { body: entries(2) })
      .on('GET', '/api/v1/incentives/leaderboard/snapshots', { body: { snapshots: [], pagination: page(0) } })
      .on('GET', '/api/v1/incentives/leaderboard/refresh-runs', () => {
        if (!started) return { body: { runs: [], pagination: page(0) } };
        reads += 1;
        return { body: { runs: [progress[Math.min(reads - 1, 1)]], pagination: page(1) } };
      })
      .on('POST', '/api/v1/incentives/leaderboard/refresh-runs', () => {
        started = true;
        return { status: 202, body: { run: run({}) } };
      });
    renderApp('/apps/app_1/leaderboard', { session: sessionFor('MANAGER'), api });
    expect(await screen.findByText('No refresh has run yet.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Refresh boards' }));
    expect(await screen.findByText('500 of 1,000 users written, started 2026-11-24 10:00:00', { exact: false })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh boards' })).toBeDisabled();
    await waitFor(() => expect(screen.getByRole('table', { name: 'Refreshes' })).toHaveTextContent('succeeded'), { timeout: 5_000 });
    expect(screen.getByRole('table', { name: 'Refreshes' })).toHaveTextContent('3.0 s');
    await waitFor(() => expect(api.sent('GET', '/api/v1/incentives/leaderboard').length).toBeGreaterThanOrEqual(2));
    expect(api.sent('POST', '/api/v1/incentives/leaderboard/refresh-runs')[0]!.headers.get('Idempotency-Key')).toBeTruthy();
    expect([runPercent(progress[0]!), runPercent(progress[1]!), runPercent(run({ usersTotal: 0 }))]).toEqual([50, 100, 0]);
  });
});
