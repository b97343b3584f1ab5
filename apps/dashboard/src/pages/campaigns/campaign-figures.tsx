import { Anchor, SimpleGrid, Skeleton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ok } from '../../api/api-error';
import { useApi, useAppId } from '../../api/use-api';
import { Figure } from '../../ui/figure';
import { FIGURE_HELP } from '../../ui/figure-help';
import { formatMoney, formatNumber, formatPercent } from '../../ui/format';
import { QueryError } from '../../ui/query-state';

/** A campaign's figures, all time, as GET /stats gives them (its reward value in its currency), with a way to its overview. */
export function CampaignFigures({ campaignId, currency }: { campaignId: string; currency: string }) {
  const api = useApi();
  const appId = useAppId();
  const stats = useQuery({
    queryKey: ['app', appId, 'stats', campaignId],
    queryFn: () => ok(api.GET('/api/v1/stats', { params: { query: { campaignId } } })),
  });
  if (stats.isError) return <QueryError error={stats.error} onRetry={() => void stats.refetch()} />;
  const s = stats.data;
  return (
    <>
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} mb="xs" aria-label="The campaign's figures, all time">
        {s ? (
          <>
            <Figure label="Referrals" value={formatNumber(s.totalReferrals)} help={FIGURE_HELP.referrals} />
            <Figure label="Clicks" value={formatNumber(s.totalClicks)} help={FIGURE_HELP.clicks} />
            <Figure label="Conversions" value={formatNumber(s.totalConversions)} help={FIGURE_HELP.conversions} />
            <Figure label="Conversion rate" value={formatPercent(s.conversionRate)} help={FIGURE_HELP.conversionRate} />
            <Figure label="Reversals" value={formatNumber(s.totalReversals)} help={FIGURE_HELP.reversals} />
            <Figure label="Reward value" value={formatMoney(s.totalRewardValue, currency)} help={FIGURE_HELP.rewardValue} />
          </>
        ) : (
          Array.from({ length: 6 }, (_, i) => <Skeleton key={i} height={72} />)
        )}
      </SimpleGrid>
      <Anchor component={Link} to={`/apps/${encodeURIComponent(appId)}/overview?campaignId=${encodeURIComponent(campaignId)}`} size="sm" mb="md" display="inline-block">
        See the campaign over time
      </Anchor>
    </>
  );
}
