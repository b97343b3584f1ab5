import { BarChart, LineChart } from '@mantine/charts';
import { SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ok } from '../../../api/api-error';
import { useApi, useAppId } from '../../../api/use-api';
import { ChartFigure, distinctLines, useChartMotion } from '../../../ui/chart-figure';
import { Figure } from '../../../ui/figure';
import { formatNumber } from '../../../ui/format';
import { QueryError } from '../../../ui/query-state';
import { actionChartPoints, actionTotals } from '../../overview/engine-figures';

const EVENT_BARS = [
  { name: 'Events', color: 'gray.5' },
  { name: 'Rewarded', color: 'teal.6' },
];
const PAID_LINES = [
  { name: 'Coins', color: 'yellow.6' },
  { name: 'XP', color: 'indigo.6' },
  { name: 'Tokens', color: 'grape.6' },
];

/**
 * How often an action was performed over the period and what it paid out,
 * per day, from its series kept on write (never a scan of the events).
 * Loaded on demand with the chart library.
 */
export default function ActionActivity({ actionKey, range }: { actionKey: string; range: { from: string; to: string } }) {
  const motion = useChartMotion();
  const api = useApi();
  const appId = useAppId();
  const series = useQuery({
    queryKey: ['app', appId, 'actions', 'series', actionKey, range.from, range.to],
    queryFn: () => ok(api.GET('/api/v1/incentives/actions/{key}/timeseries', { params: { path: { key: actionKey }, query: { interval: 'day', from: range.from, to: range.to } } })),
  });
  if (series.isError) return <QueryError error={series.error} onRetry={() => void series.refetch()} />;
  if (!series.data) return <Skeleton height={420} aria-busy="true" aria-label="Loading the action's activity" />;
  const totals = actionTotals(series.data.buckets);
  const points = actionChartPoints(series.data.buckets, series.data.interval);
  return (
    <Stack>
      <SimpleGrid cols={{ base: 2, xs: 3 }}>
        <Figure label="Events" value={formatNumber(totals.events)} />
        <Figure label="Rewarded" value={formatNumber(totals.rewardedEvents)} />
        <Figure label="Coins paid" value={formatNumber(totals.coins)} />
        <Figure label="XP paid" value={formatNumber(totals.xp)} />
        <Figure label="Tokens paid" value={formatNumber(totals.tokens)} />
      </SimpleGrid>
      <Text size="sm" fw={500}>
        Events per day
      </Text>
      <ChartFigure label="Events of the action per day" dataKey="date" series={EVENT_BARS} data={points}>
        <BarChart h={180} data={points} dataKey="date" series={EVENT_BARS} barProps={motion} withLegend accessibilityLayer={false} />
      </ChartFigure>
      <Text size="sm" fw={500}>
        Paid out per day
      </Text>
      <ChartFigure label="Paid out by the action per day" dataKey="date" series={PAID_LINES} data={points}>
        <LineChart h={180} data={points} dataKey="date" {...distinctLines(PAID_LINES, motion)} withLegend curveType="monotone" accessibilityLayer={false} />
      </ChartFigure>
    </Stack>
  );
}
