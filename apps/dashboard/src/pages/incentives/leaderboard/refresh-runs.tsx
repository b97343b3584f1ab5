import { Button, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { ok } from '../../../api/api-error';
import type { RefreshRun } from '../../../api/types';
import { newOperationKey } from '../../../api/operation-key';
import { useApi, useAppId } from '../../../api/use-api';
import { RoleGate } from '../../../session/session-context';
import { DataTable } from '../../../ui/data-table';
import { formatDateTime, formatNumber } from '../../../ui/format';
import { QueryView, TableSkeleton } from '../../../ui/query-state';
import { StatusBadge } from '../../../ui/status-badge';
import { useChange } from '../../../ui/use-change';

/** How often a running refresh is read again (the run records its progress per batch of users). */
export const RUN_REFRESH_MS = 1_000;

/** A run's progress as a share of its users (0..100); a finished run is whole. */
export function runPercent(run: Pick<RefreshRun, 'status' | 'usersDone' | 'usersTotal'>): number {
  if (run.status === 'SUCCEEDED') return 100;
  return run.usersTotal > 0 ? Math.min(100, Math.round((run.usersDone / run.usersTotal) * 100)) : 0;
}

/**
 * Rebuilding the app's boards from MongoDB (MANAGER+): a run started here,
 * or already running (one per app), followed as it goes; the latest runs.
 */
export function RefreshRuns() {
  const api = useApi();
  const appId = useAppId();
  const queryClient = useQueryClient();
  const runs = useQuery({
    queryKey: ['app', appId, 'leaderboard', 'refresh-runs'],
    queryFn: () => ok(api.GET('/api/v1/incentives/leaderboard/refresh-runs', { params: { query: { limit: 5 } } })),
    refetchInterval: (query) => (query.state.data?.runs[0]?.status === 'RUNNING' ? RUN_REFRESH_MS : false),
  });
  const latest = runs.data?.runs[0];
  // When a run ends, the boards it rebuilt are read again.
  const wasRunning = useRef(false);
  useEffect(() => {
    if (latest?.status === 'RUNNING') wasRunning.current = true;
    else if (latest && wasRunning.current) {
      wasRunning.current = false;
      void queryClient.invalidateQueries({ queryKey: ['app', appId, 'leaderboard', 'board'] });
      void queryClient.invalidateQueries({ queryKey: ['app', appId, 'leaderboard', 'position'] });
    }
  }, [latest, appId, queryClient]);
  const start = useChange({
    mutationFn: () => ok(api.POST('/api/v1/incentives/leaderboard/refresh-runs', { params: { header: { 'Idempotency-Key': newOperationKey() } } })),
    invalidates: [['leaderboard', 'refresh-runs']],
    success: (answer) => (answer.run.status === 'RUNNING' ? 'Refreshing the boards…' : `Refresh ${answer.run.status.toLowerCase()}.`),
  });
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Text fw={500}>Rebuild the boards from the database</Text>
          <RoleGate least="MANAGER">
            <Button variant="light" onClick={() => start.mutate()} loading={start.isPending} disabled={latest?.status === 'RUNNING'}>
              Refresh boards
            </Button>
          </RoleGate>
        </Group>
        {latest?.status === 'RUNNING' && (
          <div role="status" aria-live="polite">
            <Progress value={runPercent(latest)} animated aria-label="Refresh progress" />
            <Text size="sm" mt={4}>
              {formatNumber(latest.usersDone)} of {formatNumber(latest.usersTotal)} users written, started {formatDateTime(latest.startedAt)}
            </Text>
          </div>
        )}
        <QueryView query={runs} skeleton={<TableSkeleton rows={2} label="Loading the refreshes" />} isEmpty={(d) => d.runs.length === 0} empty={<Text size="sm" c="dimmed">No refresh has run yet.</Text>}>
          {(d) => (
            <DataTable
              label="Refreshes"
              rows={d.runs}
              rowKey={(r) => r.id}
              minWidth={560}
              columns={[
                { label: 'Started', cell: (r) => formatDateTime(r.startedAt) },
                { label: 'Status', cell: (r) => <StatusBadge status={r.status} /> },
                { label: 'Users', cell: (r) => `${formatNumber(r.usersDone)} / ${formatNumber(r.usersTotal)}` },
                { label: 'Took', cell: (r) => (r.durationMs === null ? '—' : `${formatNumber(r.durationMs / 1000, 1)} s`) },
                { label: 'Error', cell: (r) => r.error ?? '—' },
              ]}
            />
          )}
        </QueryView>
      </Stack>
    </Paper>
  );
}
