import { Anchor, Button, Group, Select, Stack, Table, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ok } from '../../api/api-error';
import type { Campaign } from '../../api/types';
import { useApi, useAppId } from '../../api/use-api';
import { RoleGate } from '../../session/session-context';
import { FIGURE_HELP, FigureHelp } from '../../ui/figure-help';
import { formatDate, formatMoney, formatNumber, formatPercent } from '../../ui/format';
import { PageHeader } from '../../ui/page-header';
import { Empty, QueryView } from '../../ui/query-state';
import { UrlPagination } from '../../ui/url-pagination';
import { useSearchState } from '../../url/search-state';
import { FULFILLMENT_TYPES } from './campaign-request';
import { CampaignStatusBadge, scheduleText } from './campaign-status';
import { ruleText, termsText } from './reward-rule-form';

const KEYS = ['status'] as const;
// The filter is what the list shows: the effective status (scheduled before the start, ended after the end).
const STATUSES: Array<Campaign['effectiveStatus']> = ['ACTIVE', 'SCHEDULED', 'PAUSED', 'ENDED'];
const fulfilment = (type: string) => FULFILLMENT_TYPES.find((f) => f.value === type)?.label ?? type;

/** What a campaign pays, a line per side (and its number of levels), then when rewards are payable and how long purchases earn. */
function CampaignRewards({ campaign: c }: { campaign: Campaign }) {
  return (
    <Stack gap={0}>
      <Text size="sm">
        Referrer {ruleText(c.referrerReward, c.currency)} · {fulfilment(c.referrerReward.fulfillmentType)}
      </Text>
      {c.refereeReward && (
        <Text size="sm">
          Referee {ruleText(c.refereeReward, c.currency)} · {fulfilment(c.refereeReward.fulfillmentType)}
        </Text>
      )}
      {c.levels.length > 0 && <Text size="sm">{1 + c.levels.length} levels</Text>}
      <Text size="xs" c="dimmed">
        {termsText(c)}
      </Text>
    </Stack>
  );
}

export function CampaignsPage() {
  const api = useApi();
  const appId = useAppId();
  const { values, set, page } = useSearchState(KEYS);
  const status = STATUSES.find((s) => s === values.status);
  const base = `/apps/${encodeURIComponent(appId)}/campaigns`;
  // The campaigns with their figures (GET /stats/campaigns: the list of GET /campaigns, each with GET /stats).
  const campaigns = useQuery({
    queryKey: ['app', appId, 'campaigns', 'list', status, page],
    queryFn: () => ok(api.GET('/api/v1/stats/campaigns', { params: { query: { page, limit: 25, ...(status ? { effectiveStatus: status } : {}) } } })),
    placeholderData: keepPreviousData,
  });

  return (
    <>
      <PageHeader
        title="Campaigns"
        description="Referral programs: what each referral earns, for whom, and for how long."
        actions={
          <RoleGate least="MANAGER">
            <Button component={Link} to={`${base}/new`}>
              New campaign
            </Button>
          </RoleGate>
        }
      />
      <Group mb="md">
        <Select
          label="Status"
          placeholder="Any status"
          clearable
          data={STATUSES.map((s) => ({ value: s, label: s.toLowerCase() }))}
          value={status ?? null}
          onChange={(v) => set({ status: v })}
          w={200}
        />
      </Group>
      <QueryView
        query={campaigns}
        isEmpty={(d) => d.campaigns.length === 0}
        empty={<Empty title={status ? `No ${status.toLowerCase()} campaigns` : 'No campaigns yet'} description="A campaign says what referrers and referees earn." />}
      >
        {(data) => (
          <Stack>
            <Table.ScrollContainer minWidth={900}>
              <Table striped highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Rewards</Table.Th>
                    <Table.Th>Referrals</Table.Th>
                    <Table.Th>Conversions</Table.Th>
                    <Table.Th>
                      <FigureHelp label="Conversion rate" help={FIGURE_HELP.conversionRate} />
                    </Table.Th>
                    <Table.Th>Reward value</Table.Th>
                    <Table.Th>Created</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.campaigns.map(({ campaign: c, stats }) => (
                    <Table.Tr key={c.id}>
                      <Table.Td>
                        <Anchor component={Link} to={`${base}/${encodeURIComponent(c.id)}`}>
                          {c.name}
                        </Anchor>
                        <Text size="xs" c="dimmed">
                          {c.id}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <CampaignStatusBadge status={c.effectiveStatus} />
                        {scheduleText(c) && (
                          <Text size="xs" c="dimmed">
                            {scheduleText(c)}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <CampaignRewards campaign={c} />
                      </Table.Td>
                      <Table.Td>{formatNumber(stats.totalReferrals)}</Table.Td>
                      <Table.Td>{formatNumber(stats.totalConversions)}</Table.Td>
                      <Table.Td>{formatPercent(stats.conversionRate)}</Table.Td>
                      <Table.Td>{formatMoney(stats.totalRewardValue, c.currency)}</Table.Td>
                      <Table.Td>{formatDate(c.createdAt)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <UrlPagination pagination={data.pagination} label="campaigns" />
          </Stack>
        )}
      </QueryView>
    </>
  );
}
