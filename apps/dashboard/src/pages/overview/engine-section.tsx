import { BarChart } from '@mantine/charts';
import { Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ok } from '../../api/api-error';
import { useApi, useAppId } from '../../api/use-api';
import { ChartFigure, useChartMotion } from '../../ui/chart-figure';
import { Figure } from '../../ui/figure';
import { formatNumber } from '../../ui/format';
import { QueryError } from '../../ui/query-state';
import { engineChartPoints } from './engine-figures';

const ENGINE_BARS = [
  { name: 'Coins issued', color: 'teal.6' },
  { name: 'Coins redeemed', color: 'orange.6' },
  { name: 'Tokens issued', color: 'indigo.5' },
  { name: 'Tokens redeemed', color: 'grape.5' },
];

/** The incentive engine over the period: events, active users, coins and tokens issued, redeemed, expired and reversed, redemptions (kept on write). */
export function EngineSection({ range }: { range: { from: string; to: string } }) {
  const motion = useChartMotion();
  const api = useApi();
  const appId = useAppId();
  const series = useQuery({
    queryKey: ['app', appId, 'engine', 'series', range.from, range.to],
    queryFn: () => ok(api.GET('/api/v1/incentives/stats/timeseries', { params: { query: { interval: 'day', from: range.from, to: range.to } } })),
  });
  const totals = series.data?.totals;
  const points = series.data ? engineChartPoints(series.data.buckets, series.data.interval) : null;
  return (
    <section aria-labelledby="engine-heading">
      <Title order={2} size="h3" id="engine-heading" mt="lg" mb="xs">
        Incentive engine
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Events and what they paid, and what users redeemed, over the same days. Redeemed is net of refunds; expired is what lapsed under the app's expiry settings;
        reversed is what reversals of conversions and events took back (a part left owed as debt is not in it).
      </Text>
      {series.isError ? (
        <QueryError error={series.error} onRetry={() => void series.refetch()} />
      ) : (
        <Stack>
          <SimpleGrid cols={{ base: 2, sm: 4 }}>
            {totals ? (
              <>
                <Figure size="xl" label="Events" value={formatNumber(totals.events)} />
                <Figure size="xl" label="Active users" value={formatNumber(totals.activeUsers)} />
                <Figure size="xl" label="Coins issued" value={formatNumber(totals.coinsIssued)} />
                <Figure size="xl" label="Coins redeemed" value={formatNumber(totals.coinsRedeemed)} />
                <Figure size="xl" label="Tokens issued" value={formatNumber(totals.tokensIssued)} />
                <Figure size="xl" label="Tokens redeemed" value={formatNumber(totals.tokensRedeemed)} />
                <Figure size="xl" label="XP issued" value={formatNumber(totals.xpIssued)} />
                <Figure size="xl" label="Redemptions" value={formatNumber(totals.redemptions)} />
                <Figure size="xl" label="Coins expired" value={formatNumber(totals.coinsExpired)} />
                <Figure size="xl" label="Coins reversed" value={formatNumber(totals.coinsReversed)} />
                <Figure size="xl" label="Tokens expired" value={formatNumber(totals.tokensExpired)} />
                <Figure size="xl" label="Tokens reversed" value={formatNumber(totals.tokensReversed)} />
              </>
            ) : (
              Array.from({ length: 12 }, (_, i) => <Skeleton key={i} height={72} />)
            )}
          </SimpleGrid>
          <Paper withBorder p="md" radius="md">
            <Title order={3} size="h4" mb="sm">
              Coins and tokens issued against redeemed per day
            </Title>
            {points ? (
              <ChartFigure label="Coins and tokens issued against redeemed per day" dataKey="date" series={ENGINE_BARS} data={points}>
                <BarChart
                  h={260}
                  data={points}
                  dataKey="date"
                  series={ENGINE_BARS}
                  barProps={motion}
                  withLegend
                  legendProps={{ verticalAlign: 'bottom', height: 50 }}
                  accessibilityLayer={false}
                />
              </ChartFigure>
            ) : (
              <Skeleton height={260} />
            )}
          </Paper>
        </Stack>
      )}
    </section>
  );
}
