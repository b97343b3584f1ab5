import { useQuery } from '@tanstack/react-query';
import { ApiError, ok } from '../../../api/api-error';
import type { LeaderboardEntry, LeaderboardPeriod, Pagination } from '../../../api/types';
import { useApi, useAppId } from '../../../api/use-api';

export const PERIODS: { value: LeaderboardPeriod; label: string }[] = [
  { value: 'ALL_TIME', label: 'All time' },
  { value: 'DAILY', label: 'Today' },
  { value: 'WEEKLY', label: 'This week' },
  { value: 'MONTHLY', label: 'This month' },
];

export function periodOf(value: string | null): LeaderboardPeriod {
  return PERIODS.find((p) => p.value === value)?.value ?? 'ALL_TIME';
}

export function periodLabel(period: LeaderboardPeriod): string {
  return PERIODS.find((p) => p.value === period)?.label ?? period;
}

/** The most the API ranks in one read (its `limit` tops at 100): the board shows this top, a page at a time. */
export const BOARD_SIZE = 100;
export const BOARD_PAGE = 25;

/** One page of the top of a board, read whole, with the list pagination the other pages use. */
export function boardPage(entries: LeaderboardEntry[], page: number): { rows: LeaderboardEntry[]; pagination: Pagination } {
  const totalPages = Math.max(1, Math.ceil(entries.length / BOARD_PAGE));
  const current = Math.min(Math.max(1, page), totalPages);
  return {
    rows: entries.slice((current - 1) * BOARD_PAGE, current * BOARD_PAGE),
    pagination: { page: current, limit: BOARD_PAGE, totalItems: entries.length, totalPages },
  };
}

/** A user's entry on a board (their rank even outside the top); null when they are not on it (404). */
export function useBoardPosition(userId: string | null, period: LeaderboardPeriod) {
  const api = useApi();
  const appId = useAppId();
  return useQuery({
    queryKey: ['app', appId, 'leaderboard', 'position', userId, period],
    queryFn: () =>
      ok(api.GET('/api/v1/incentives/leaderboard/{userId}', { params: { path: { userId: userId! }, query: { period } } })).catch((err: unknown) => {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }),
    enabled: userId !== null,
  });
}
