import { AreaChart, LineChart } from '@mantine/charts';
import { Group, Paper, Select, SimpleGrid, Skeleton, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { ok } from '../../api/api-error';
import { useApi, useAppId } from '../../api/use-api';
import { ChartFigure, distinctLines, useChartMotion } from '../../ui/chart-figure';
import { Figure } from '../../ui/figure';
import { FIGURE_HELP } from '../../ui/figure-help';
import { formatNumber, formatPercent, formatValue } from '../../ui/format';
import { PageHeader } from '../../ui/page-header';
import { Empty, QueryError } from '../../ui/query-state';
import { useSearchState } from '../../url/search-state';
import { useCampaignCurrencies, useCampaignOptions } from '../campaigns/use-campaigns';
import { EngineSection } from './engine-section';
import { CampaignComparison } from './campaign-comparison';
import { chartPoints, customRange, periodOf, periodRange, periodTotals } from './overview-figures';
import { PeriodPicker } from './period-picker';
import { TopReferrers } from './top-referrers';

const KEYS = ['campaignId', 'days', 'from', 'to'] as const;
/** The campaign picker's value for every campaign of the app at once. */
const ALL = 'all';
const FUNNEL_LINES = [
  { name: 'Referrals', color: 'indigo.6' },
  { name: 'Clicks', color: 'teal.6' },
  { name: 'Conversions', color: 'orange.6' },
  { name: 'Reversals', color: 'red.6' },
];
const FUNNEL_TITLE = 'Referrals, clicks, conversions and reversals per day';
const REWARD_AREA = [{ name: 'Reward value', color: 'grape.6' }];


export function OverviewPage() {
  const motion = useChartMotion();
  const api = useApi();
  const appId = useAppId();
  const { values, set } = useSearchState(KEYS);
  const campaigns = useCampaignOptions();
  const currencies = useCampaignCurrencies();
  // A custom period (`days=custom&from=…&to=…`, whole UTC days), else a preset (30 days by default).
  const custom = values.days === 'custom';
  const days = custom ? null : periodOf(values.days);
  const picked = values.campaignId ?? null;
  // Every campaign at once: the app's figures (`?campaignId=all`).
  const all = picked === ALL;
  const campaignId = all ? null : picked;

  // Without a campaign in the URL, the newest one (kept in the URL, so the view can be linked).
  useEffect(() => {
    const first = campaigns.data?.[0]?.value;
    if (!picked && first) set({ campaignId: first }, { replace: true });
  }, [picked, campaigns.data, set]);

  const checked = custom ? customRange(values.from, values.to) : null;
  const range = useMemo(
    () => (days !== null ? periodRange(days, new Date()) : checked && 'range' in checked ? checked.range : null),
    // A custom range is made of its days (checked is derived from them at each render).
    [days, values.from, values.to],
  );
  const ready = range !== null && (all || campaignId !== null);
  const series = useQuery({
    queryKey: ['app', appId, 'timeseries', picked, range?.from, range?.to],
    queryFn: () =>
      ok(api.GET('/api/v1/stats/timeseries', { params: { query: { ...(campaignId ? { campaignId } : {}), from: range!.from, to: range!.to, interval: 'day' } } })),
    enabled: ready,
  });
  // The conversion rate is GET /stats's (per referral, all time), the one figure the API defines it by.
  const rate = useQuery({
    queryKey: ['app', appId, 'stats', 'rate', all ? ALL : campaignId],
    queryFn: async () =>
      all
        ? (await ok(api.GET('/api/v1/stats/campaigns', { params: { query: { limit: 25 } } }))).totals.conversionRate
        : (await ok(api.GET('/api/v1/stats', { params: { query: { campaignId: campaignId! } } }))).conversionRate,
    enabled: all || campaignId !== null,
  });
  const totals = series.data ? periodTotals(series.data.buckets) : null;
  // A campaign's reward value in its currency; every campaign's in their one currency, else a plain number that says why.
  const currency = currencies.of(campaignId);
  const rewardHelp = `${FIGURE_HELP.rewardValue} In the period.${currency === null && all ? ` ${FIGURE_HELP.severalCurrencies}` : ''}`;
  const points = series.data ? chartPoints(series.data.buckets, series.data.interval) : [];

  return (
    <>
      <PageHeader
        title="Overview"
        description="Your campaigns' referrals, clicks, conversions, reversals and rewards over time, one campaign or all of them, and what the incentive engine issued and users redeemed."
      />
      <Group mb="md" wrap="wrap" align="flex-end">
        <Select
          label="Campaign"
          placeholder={campaigns.isPending ? 'Loading campaigns…' : 'Pick a campaign'}
          data={[...(campaigns.data && campaigns.data.length > 0 ? [{ value: ALL, label: 'All campaigns' }] : []), ...(campaigns.data ?? [])]}
          value={picked}
          onChange={(v) => set({ campaignId: v })}
          allowDeselect={false}
          searchable
          w={{ base: '100%', xs: 320 }}
        />
        <PeriodPicker
          value={{ days, from: values.from, to: values.to }}
          onChange={(next) => {
            if (next.days !== null) return set({ days: next.days === 30 ? null : String(next.days), from: null, to: null });
            // A custom period starts as the one on view.
            const shown = range ? { from: range.from.slice(0, 10), to: new Date(Date.parse(range.to) - 86_400_000).toISOString().slice(0, 10) } : null;
            set({ days: 'custom', from: next.from ?? shown?.from ?? null, to: next.to ?? shown?.to ?? null });
          }}
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
          <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }}>
            {totals ? (
              <>
                <Figure size="xl" label="Referrals" value={formatNumber(totals.referrals)} help={`${FIGURE_HELP.referrals} In the period.`} />
                <Figure size="xl" label="Clicks" value={formatNumber(totals.clicks)} help={`${FIGURE_HELP.clicks} In the period.`} />
                <Figure size="xl" label="Conversions" value={formatNumber(totals.conversions)} help={`${FIGURE_HELP.conversions} In the period.`} />
                <Figure size="xl" label="Conversion rate" value={rate.data === undefined ? '…' : formatPercent(rate.data)} help={FIGURE_HELP.conversionRate} />
                <Figure size="xl" label="Reversals" value={formatNumber(totals.reversals)} help={`${FIGURE_HELP.reversals} In the period.`} />
                <Figure size="xl" label="Reward value" value={formatValue(totals.rewardValue, currency)} help={rewardHelp} />
              </>
            ) : (
              Array.from({ length: 6 }, (_, i) => <Skeleton key={i} height={72} />)
            )}
          </SimpleGrid>
          <Paper withBorder p="md" radius="md">
            <Title order={2} size="h4" mb="sm">
              {FUNNEL_TITLE}
            </Title>
            {series.data ? (
              <ChartFigure label={FUNNEL_TITLE} dataKey="date" series={FUNNEL_LINES} data={points}>
                <LineChart
                  h={280}
                  data={points}
                  dataKey="date"
                  {...distinctLines(FUNNEL_LINES, motion)}
                  curveType="monotone"
                  withLegend
                  legendProps={{ verticalAlign: 'bottom', height: 50 }}
                  accessibilityLayer={false}
                />
              </ChartFigure>
            ) : (
              <Skeleton height={280} />
            )}
          </Paper>
          <Paper withBorder p="md" radius="md">
            <Title order={2} size="h4" mb="sm">
              Reward value per day
            </Title>
            {series.data ? (
              <ChartFigure label="Reward value per day" dataKey="date" series={REWARD_AREA} data={points}>
                <AreaChart h={200} data={points} dataKey="date" series={REWARD_AREA} areaProps={motion} accessibilityLayer={false} />
              </ChartFigure>
            ) : (
              <Skeleton height={200} />
            )}
          </Paper>
        </Stack>
      )}
      {range && ready && (
        <Stack mt="md">
          <TopReferrers campaignId={campaignId} range={range} currency={currency} />
          {all && <CampaignComparison />}
        </Stack>
      )}
      {range && <EngineSection range={range} />}
    </>
  );
}
