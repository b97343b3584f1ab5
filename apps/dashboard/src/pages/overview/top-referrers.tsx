import { Paper, Stack, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ok } from '../../api/api-error';
import { useApi, useAppId } from '../../api/use-api';
import { DataTable } from '../../ui/data-table';
import { formatNumber, formatValue } from '../../ui/format';
import { Empty, QueryView, TableSkeleton } from '../../ui/query-state';
import { SegmentedField } from '../../ui/segmented-field';
import { UserLink } from '../../ui/user-link';

type Order = 'CONVERSIONS' | 'REWARD_VALUE';

/**
 * The period's best referrers (GET /stats/top-referrers), by conversions or by reward value, of one campaign or all;
 * reward values in `currency` (null: plain numbers, the campaigns being in several).
 */
export function TopReferrers({ campaignId, range, currency }: { campaignId: string | null; range: { from: string; to: string }; currency: string | null }) {
  const api = useApi();
  const appId = useAppId();
  const [by, setBy] = useState<Order>('CONVERSIONS');
  const top = useQuery({
    queryKey: ['app', appId, 'top-referrers', campaignId, range.from, range.to, by],
    queryFn: () =>
      ok(api.GET('/api/v1/stats/top-referrers', { params: { query: { ...(campaignId ? { campaignId } : {}), from: range.from, to: range.to, by, limit: 10 } } })),
    placeholderData: keepPreviousData,
  });
  return (
    <Paper withBorder p="md" radius="md">
      <Stack>
        <Title order={2} size="h4">
          Top referrers
        </Title>
        <SegmentedField
          label="Ranked by"
          value={by}
          onChange={setBy}
          data={[
            { value: 'CONVERSIONS', label: 'By conversions' },
            { value: 'REWARD_VALUE', label: 'By reward value' },
          ]}
        />
        <QueryView
          query={top}
          skeleton={<TableSkeleton rows={5} label="Loading the top referrers" />}
          isEmpty={(d) => d.referrers.length === 0}
          empty={<Empty title="No conversions in this period" description="Referrers appear here once their referees convert." />}
        >
          {(d) => (
            <DataTable
              label="Top referrers"
              rows={d.referrers.map((r, i) => ({ ...r, rank: i + 1 }))}
              rowKey={(r) => r.userId}
              minWidth={420}
              columns={[
                { label: 'Rank', cell: (r) => r.rank },
                { label: 'Referrer', cell: (r) => <UserLink userId={r.userId} /> },
                { label: 'Conversions', cell: (r) => formatNumber(r.conversions) },
                { label: 'Reward value', cell: (r) => formatValue(r.rewardValue, currency) },
              ]}
            />
          )}
        </QueryView>
      </Stack>
    </Paper>
  );
}
