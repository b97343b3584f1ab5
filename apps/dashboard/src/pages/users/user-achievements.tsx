import { Stack } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ok } from '../../api/api-error';
import { useApi, useAppId } from '../../api/use-api';
import { DataTable } from '../../ui/data-table';
import { formatDateTime, formatNumber } from '../../ui/format';
import { Empty, QueryView } from '../../ui/query-state';
import { UrlPagination } from '../../ui/url-pagination';
import { metricLabel } from '../incentives/progression/progression-request';
import { BadgeIdentity } from '../incentives/progression/badge-identity';

const SOURCES = { MANUAL: 'by hand', LEVEL: 'level', MILESTONE: 'milestone', STREAK: 'streak' } as const;

/** The badges a user holds, and what awarded each. */
export function UserBadges({ userId, page }: { userId: string; page: number }) {
  const api = useApi();
  const appId = useAppId();
  const badges = useQuery({
    queryKey: ['app', appId, 'user', userId, 'badges', page],
    queryFn: () => ok(api.GET('/api/v1/incentives/badges/user/{userId}', { params: { path: { userId }, query: { page, limit: 25 } } })),
    placeholderData: keepPreviousData,
  });
  return (
    <QueryView query={badges} isEmpty={(d) => d.badges.length === 0} empty={<Empty title="No badges yet" />}>
      {(d) => (
        <Stack>
          <DataTable
            label="Badges"
            rows={d.badges}
            rowKey={(b) => b.key}
            minWidth={560}
            columns={[
              {
                label: 'Badge',
                cell: (b) => <BadgeIdentity badge={b} />,
              },
              { label: 'Awarded', cell: (b) => `${SOURCES[b.source]}${b.sourceId ? ` ${b.sourceId}` : ''}` },
              { label: 'When', cell: (b) => formatDateTime(b.awardedAt) },
            ]}
          />
          <UrlPagination pagination={d.pagination} label="badges" />
        </Stack>
      )}
    </QueryView>
  );
}

/** The milestones a user reached, newest first. */
export function UserMilestones({ userId, page }: { userId: string; page: number }) {
  const api = useApi();
  const appId = useAppId();
  const milestones = useQuery({
    queryKey: ['app', appId, 'user', userId, 'milestones', page],
    queryFn: () => ok(api.GET('/api/v1/incentives/milestones', { params: { query: { userId, page, limit: 25 } } })),
    placeholderData: keepPreviousData,
  });
  return (
    <QueryView query={milestones} isEmpty={(d) => d.milestones.length === 0} empty={<Empty title="No milestones reached yet" />}>
      {(d) => (
        <Stack>
          <DataTable
            label="Milestones reached"
            rows={d.milestones}
            rowKey={(m) => m.key}
            minWidth={560}
            columns={[
              { label: 'Milestone', cell: (m) => m.name },
              { label: 'When reached', cell: (m) => `${metricLabel(m.metric)} reached ${formatNumber(m.threshold)}` },
              { label: 'Reached', cell: (m) => formatDateTime(m.reachedAt) },
            ]}
          />
          <UrlPagination pagination={d.pagination} label="milestones" />
        </Stack>
      )}
    </QueryView>
  );
}
