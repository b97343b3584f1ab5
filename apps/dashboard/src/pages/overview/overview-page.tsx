import { AreaChart, LineChart } from '@mantine/charts';
import { Group, Paper, Select, SimpleGrid, Skeleton, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { ok } from '../../api/api-error';
import { useApi, useAppId } from '../../api/use-api';
import { Figure } from '../../ui/figure';
import { formatAmount, formatNumber } from '../../ui/format';
import { PageHeader } from '../../ui/page-header';
import { Empty, QueryError } from '../../ui/query-state';
import { SegmentedField } from '../../ui/segmented-field';
import { useSearchState } from '../../url/search-state';
import { useCampaignOptions } from '../campaigns/use-campaigns';
import { PERIODS, chartPoints, periodOf, periodRange, periodTotals } from './overview-figures';

const KEYS = ['campaignId', 'days'] as const;


export function OverviewPage() {
  const api = useApi();
  const appId = useAppId();
  const { values, set } = useSearchState(KEYS);
  const campaigns = useCampaignOptions();
  const days = periodOf(values.days);
  const campaignId = values.campaignId ?? null;

  // Without a campaign in the URL, the newest one (kept in the URL, so the view can be linked).
  useEffect(() => {
    const first = campaigns.data?.[0]?.value;
    if (!campaignId && first) set({ campaignId: first }, { replace: true });
  }, [campaignId, campaigns.data, set]);

  const range = useMemo(() => periodRange(days, new Date()), [days]);
  const series = useQuery({
    queryKey: ['app', appId, 'timeseries', campaignId, range.from, range.to],
    queryFn: () =>
      ok(api.GET('/api/v1/stats/timeseries', { params: { query: { campaignId: campaignId!, from: range.from, to: range.to, interval: 'day' } } })),
    enabled: campaignId !== null,
  });
  const totals = series.data ? periodTotals(series.data.buckets) : null;
  const points = series.data ? chartPoints(series.data.buckets, series.data.interval) : [];

  return (
    <>
      <PageHeader title="Overview" description="A campaign's referrals, clicks, conversions and rewards over time." />
      <Group mb="md" wrap="wrap">
        <Select
          label="Campaign"
          placeholder={campaigns.isPending ? 'Loading campaigns…' : 'Pick a campaign'}
          data={campaigns.data ?? []}
          value={campaignId}
          onChange={(v) => set({ campaignId: v })}
          allowDeselect={false}
          searchable
          w={{ base: '100%', xs: 320 }}
        />
        <SegmentedField
          label="Period"
          value={String(days)}
          onChange={(v) => set({ days: v === '30' ? null : v })}
          data={PERIODS.map((d) => ({ value: String(d), label: `${d} days` }))}
        />
      </Group>
      {campaigns.isError ? (
        <QueryError error={campaigns.error} onRetry={() => void campaigns.refetch()} />
      ) : campaigns.data && campaigns.data.length === 0 ? (
        <Empty title="No campaigns yet" description="Create a campaign to see its referrals here." />
      ) : series.isError ? (
        <QueryError error={series.error} onRetry={() => void series.refetch()} />
      ) : (
        <Stack>
          <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }}>
            {totals ? (
              <>
                <Figure size="xl" label="Referrals" value={formatNumber(totals.referrals)} />
                <Figure size="xl" label="Clicks" value={formatNumber(totals.clicks)} />
                <Figure size="xl" label="Conversions" value={formatNumber(totals.conversions)} />
                <Figure size="xl" label="Conversion rate" value={`${formatNumber(totals.conversionRate, 2)} %`} />
                <Figure size="xl" label="Reward value" value={formatAmount(totals.rewardValue)} />
              </>
            ) : (
              Array.from({ length: 5 }, (_, i) => <Skeleton key={i} height={72} />)
            )}
          </SimpleGrid>
          <Paper withBorder p="md" radius="md">
            <Title order={2} size="h4" mb="sm">
              Referrals, clicks and conversions per day
            </Title>
            {series.data ? (
              <LineChart
                h={280}
                data={points}
                dataKey="date"
                series={[
                  { name: 'Referrals', color: 'indigo.6' },
                  { name: 'Clicks', color: 'teal.6' },
                  { name: 'Conversions', color: 'orange.6' },
                ]}
                curveType="monotone"
                withLegend
                legendProps={{ verticalAlign: 'bottom', height: 50 }}
                aria-label="Referrals, clicks and conversions per day"
              />
            ) : (
              <Skeleton height={280} />
            )}
          </Paper>
          <Paper withBorder p="md" radius="md">
            <Title order={2} size="h4" mb="sm">
              Reward value per day
            </Title>
            {series.data ? (
              <AreaChart h={200} data={points} dataKey="date" series={[{ name: 'Reward value', color: 'grape.6' }]} aria-label="Reward value per day" />
            ) : (
              <Skeleton height={200} />
            )}
          </Paper>
        </Stack>
      )}
    </>
  );
}
