import { Button, Code, Drawer, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { ok } from '../../../api/api-error';
import type { LeaderboardEntry, LeaderboardPeriod } from '../../../api/types';
import { useApi, useAppId } from '../../../api/use-api';
import { DataTable } from '../../../ui/data-table';
import { formatDateTime, formatNumber } from '../../../ui/format';
import { PageHeader } from '../../../ui/page-header';
import { Empty, QueryError, QueryView, TableSkeleton } from '../../../ui/query-state';
import { SegmentedField } from '../../../ui/segmented-field';
import { TextSearch } from '../../../ui/text-search';
import { UrlPagination } from '../../../ui/url-pagination';
import { UserLink } from '../../../ui/user-link';
import { pageOf, useSearchState } from '../../../url/search-state';
import { RefreshRuns } from './refresh-runs';
import { BOARD_SIZE, PERIODS, boardPage, periodLabel, periodOf, useBoardPosition } from './leaderboard-periods';

const KEYS = ['period', 'userId', 'snapshot'] as const;

function EntriesTable({ entries, label, highlight }: { entries: LeaderboardEntry[]; label: string; highlight?: string | null }) {
  return (
    <DataTable
      label={label}
      rows={entries}
      rowKey={(e) => `${e.rank}:${e.userId}`}
      minWidth={420}
      rowProps={(e) => ({ 'data-testid': 'board-row', ...(e.userId === highlight ? { 'aria-current': 'true' } : {}) })}
      columns={[
        { label: 'Rank', cell: (e) => <Text fw={700}>{e.rank}</Text> },
        {
          label: 'User',
          cell: (e) => <UserLink userId={e.userId} />,
        },
        { label: 'XP', cell: (e) => formatNumber(e.xp) },
        { label: 'Coins', cell: (e) => formatNumber(e.coins) },
      ]}
    />
  );
}

/** One user's position on the board of the period, even outside the top. */
function Position({ userId, period }: { userId: string; period: LeaderboardPeriod }) {
  const position = useBoardPosition(userId, period);
  if (position.isPending) return <TableSkeleton rows={1} label={`Finding ${userId}`} />;
  if (position.isError) return <QueryError error={position.error} onRetry={() => void position.refetch()} />;
  return (
    <Text size="sm" role="status">
      {position.data ? (
        <>
          <strong>{userId}</strong> is <strong>#{formatNumber(position.data.rank)}</strong> {periodLabel(period).toLowerCase()}, with {formatNumber(position.data.xp)} XP.
        </>
      ) : (
        <>
          <strong>{userId}</strong> is not on the board {periodLabel(period).toLowerCase()}.
        </>
      )}
    </Text>
  );
}

/** The boards as they stood when each period ended (the all-time board at the end of each day). */
function Snapshots({ period, openId, onOpen }: { period: LeaderboardPeriod; openId: string | null; onOpen: (id: string | null) => void }) {
  const api = useApi();
  const appId = useAppId();
  const [params] = useSearchParams();
  const page = pageOf(params, 'snapshotsPage');
  const snapshots = useQuery({
    queryKey: ['app', appId, 'leaderboard', 'snapshots', period, page],
    queryFn: () => ok(api.GET('/api/v1/incentives/leaderboard/snapshots', { params: { query: { period, page, limit: 10 } } })),
    placeholderData: keepPreviousData,
  });
  const open = snapshots.data?.snapshots.find((s) => s.id === openId) ?? null;
  return (
    <>
      <QueryView query={snapshots} isEmpty={(d) => d.snapshots.length === 0} empty={<Empty title="No snapshots yet" description="A board's top is kept when its period ends." />}>
        {(d) => (
          <Stack>
            <DataTable
              label="Snapshots"
              rows={d.snapshots}
              rowKey={(s) => s.id}
              minWidth={600}
              columns={[
                { label: 'Period', cell: (s) => <Code>{s.periodKey}</Code> },
                { label: 'Ended', cell: (s) => formatDateTime(s.endsAt) },
                { label: 'Users', cell: (s) => formatNumber(s.totalUsers) },
                { label: 'First', cell: (s) => (s.entries[0] ? `${s.entries[0].userId} · ${formatNumber(s.entries[0].xp)} XP` : '—') },
                {
                  label: 'Open',
                  hiddenLabel: true,
                  cell: (s) => (
                    <Button size="compact-sm" variant="light" onClick={() => onOpen(s.id)} aria-label={`Snapshot ${s.periodKey}`}>
                      Open
                    </Button>
                  ),
                },
              ]}
            />
            <UrlPagination pagination={d.pagination} label="snapshots" param="snapshotsPage" />
          </Stack>
        )}
      </QueryView>
      <Drawer opened={openId !== null && open !== null} onClose={() => onOpen(null)} position="right" size="md" title={open ? `Snapshot ${open.periodKey}` : 'Snapshot'}>
        {open && (
          <Stack>
            <Text size="sm" c="dimmed">
              {periodLabel(open.period)} board{open.startsAt ? ` from ${formatDateTime(open.startsAt)}` : ''} to {formatDateTime(open.endsAt)}, taken {formatDateTime(open.takenAt)}; the top{' '}
              {open.entries.length} of {formatNumber(open.totalUsers)} users.
            </Text>
            <EntriesTable entries={open.entries} label={`Snapshot ${open.periodKey}`} />
          </Stack>
        )}
      </Drawer>
    </>
  );
}

/** The boards per period, a user's position, and the snapshots of past periods. */
export function LeaderboardPage() {
  const api = useApi();
  const appId = useAppId();
  const { values, set, page } = useSearchState(KEYS);
  const period = periodOf(values.period);
  const board = useQuery({
    queryKey: ['app', appId, 'leaderboard', 'board', period],
    queryFn: () => ok(api.GET('/api/v1/incentives/leaderboard', { params: { query: { period, limit: BOARD_SIZE } } })),
  });
  return (
    <>
      <PageHeader title="Leaderboard" description="Users by XP earned in the period (all time, today, this week, this month; UTC). Equal XP goes to whoever reached it first. The boards can be rebuilt from the database, their progress shown as it goes." />
      <Group mb="md" align="flex-end" wrap="wrap">
        <SegmentedField label="Period" value={period} onChange={(v) => set({ period: v === 'ALL_TIME' ? null : v, snapshot: null })} data={PERIODS} />
        <TextSearch label="User id" formLabel="Find a user on the board" submitLabel="Find position" initial={values.userId} onSearch={(v) => set({ userId: v })} />
      </Group>
      <Stack>
        {values.userId && (
          <Paper withBorder p="sm">
            <Position userId={values.userId} period={period} />
          </Paper>
        )}
        <QueryView query={board} isEmpty={(d) => d.length === 0} empty={<Empty title="Nobody on this board yet" description="Users appear here as they earn XP in the period." />}>
          {(entries) => {
            const shown = boardPage(entries, page);
            return (
              <Stack>
                <EntriesTable entries={shown.rows} label={`Leaderboard, ${periodLabel(period).toLowerCase()}`} highlight={values.userId} />
                <UrlPagination pagination={shown.pagination} label={entries.length >= BOARD_SIZE ? 'users in the top 100' : 'users'} />
              </Stack>
            );
          }}
        </QueryView>
        <Title order={2} size="h4" mt="md">
          Snapshots
        </Title>
        <Snapshots period={period} openId={values.snapshot} onOpen={(id) => set({ snapshot: id })} />
        <Title order={2} size="h4" mt="md">
          Refreshes
        </Title>
        <RefreshRuns />
      </Stack>
    </>
  );
}
