import { Anchor, Button, Group, Select, Stack, Table, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ok } from '../../api/api-error';
import type { CampaignStatus } from '../../api/types';
import { useApi, useAppId } from '../../api/use-api';
import { RoleGate } from '../../session/session-context';
import { formatAmount, formatDate } from '../../ui/format';
import { PageHeader } from '../../ui/page-header';
import { Empty, QueryView } from '../../ui/query-state';
import { UrlPagination } from '../../ui/url-pagination';
import { useSearchState } from '../../url/search-state';
import { FULFILLMENT_TYPES } from './campaign-request';
import { CampaignStatusBadge } from './campaign-status';

const KEYS = ['status'] as const;
const STATUSES: CampaignStatus[] = ['ACTIVE', 'PAUSED', 'ENDED'];
const fulfilment = (type: string) => FULFILLMENT_TYPES.find((f) => f.value === type)?.label ?? type;

export function CampaignsPage() {
  const api = useApi();
  const appId = useAppId();
  const { values, set, page } = useSearchState(KEYS);
  const status = STATUSES.find((s) => s === values.status);
  const base = `/apps/${encodeURIComponent(appId)}/campaigns`;
  const campaigns = useQuery({
    queryKey: ['app', appId, 'campaigns', 'list', status, page],
    queryFn: () => ok(api.GET('/api/v1/campaigns', { params: { query: { page, limit: 25, ...(status ? { status } : {}) } } })),
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
            <Table.ScrollContainer minWidth={720}>
              <Table striped highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Referrer reward</Table.Th>
                    <Table.Th>Referee reward</Table.Th>
                    <Table.Th>Levels</Table.Th>
                    <Table.Th>Created</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.campaigns.map((c) => (
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
                        <CampaignStatusBadge status={c.status} />
                      </Table.Td>
                      <Table.Td>
                        {formatAmount(c.referrerReward.amount)} · {fulfilment(c.referrerReward.fulfillmentType)}
                      </Table.Td>
                      <Table.Td>{c.refereeReward ? `${formatAmount(c.refereeReward.amount)} · ${fulfilment(c.refereeReward.fulfillmentType)}` : '—'}</Table.Td>
                      <Table.Td>{1 + c.levels.length}</Table.Td>
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
