import { BarChart } from '@mantine/charts';
import { Anchor, Paper, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ok } from '../../api/api-error';
import { useApi, useAppId } from '../../api/use-api';
import { ChartFigure, useChartMotion } from '../../ui/chart-figure';
import { DataTable } from '../../ui/data-table';
import { FIGURE_HELP, FigureHelp } from '../../ui/figure-help';
import { formatMoney, formatNumber, formatPercent } from '../../ui/format';
import { QueryView, TableSkeleton } from '../../ui/query-state';

const BARS = [
  { name: 'Conversions', color: 'orange.6' },
  { name: 'Referrals', color: 'indigo.6' },
];

/**
 * Every campaign side by side, all time (GET /stats/campaigns, the 25
 * newest): a chart of referrals and conversions per campaign and a table of
 * each campaign's figures, each opening the campaign.
 */
export function CampaignComparison() {
  const motion = useChartMotion();
  const api = useApi();
  const appId = useAppId();
  const campaigns = useQuery({
    queryKey: ['app', appId, 'stats', 'campaigns'],
    queryFn: () => ok(api.GET('/api/v1/stats/campaigns', { params: { query: { limit: 25 } } })),
  });
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h4" mb="sm">
        Campaigns side by side, all time
      </Title>
      <QueryView query={campaigns} skeleton={<TableSkeleton rows={5} label="Loading the campaigns' figures" />}>
        {(d) => {
          const points = d.campaigns.map(({ campaign, stats }) => ({ campaign: campaign.name, Referrals: stats.totalReferrals, Conversions: stats.totalConversions }));
          return (
            <Stack>
              <ChartFigure label="Referrals and conversions per campaign, all time" dataKey="campaign" series={BARS} data={points}>
                <BarChart h={240} data={points} dataKey="campaign" series={BARS} barProps={motion} withLegend accessibilityLayer={false} />
              </ChartFigure>
              <DataTable
                label="Campaigns' figures"
                rows={d.campaigns}
                rowKey={(r) => r.campaign.id}
                minWidth={720}
                columns={[
                  {
                    label: 'Campaign',
                    cell: (r) => (
                      <Anchor component={Link} to={`/apps/${encodeURIComponent(appId)}/campaigns/${encodeURIComponent(r.campaign.id)}`}>
                        {r.campaign.name}
                      </Anchor>
                    ),
                  },
                  { label: 'Referrals', cell: (r) => formatNumber(r.stats.totalReferrals) },
                  { label: 'Clicks', cell: (r) => formatNumber(r.stats.totalClicks) },
                  { label: 'Conversions', cell: (r) => formatNumber(r.stats.totalConversions) },
                  { label: 'Conversion rate', cell: (r) => formatPercent(r.stats.conversionRate) },
                  { label: 'Reward value', cell: (r) => formatMoney(r.stats.totalRewardValue, r.campaign.currency) },
                ]}
              />
              <FigureHelp label="Conversion rate" help={FIGURE_HELP.conversionRate} />
            </Stack>
          );
        }}
      </QueryView>
    </Paper>
  );
}
