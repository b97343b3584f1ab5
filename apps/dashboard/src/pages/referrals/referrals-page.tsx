import { Anchor, Button, Group, Paper, Select, Stack, Table, Tabs, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ApiError, ok } from '../../api/api-error';
import type { ConversionStatus } from '../../api/types';
import { useApi, useAppId } from '../../api/use-api';
import { formatDateTime, formatNumber, formatValue } from '../../ui/format';
import { PageHeader } from '../../ui/page-header';
import { Empty, QueryView } from '../../ui/query-state';
import { ExportButton } from '../../ui/export-button';
import { StatusBadge } from '../../ui/status-badge';
import { UrlPagination } from '../../ui/url-pagination';
import { useSearchState } from '../../url/search-state';
import { useCampaignCurrencies, useCampaignOptions } from '../campaigns/use-campaigns';
import { ConversionDrawer } from './conversion-drawer';
import { RecordReward, RecordSale, isConverted } from './conversion-record';

const KEYS = ['tab', 'campaignId', 'code', 'user', 'status', 'conversion', 'referee'] as const;
const CONVERSION_STATUSES: ConversionStatus[] = ['PENDING', 'CLICKED', 'CONVERTED', 'FLAGGED', 'REJECTED', 'REVERSED'];

type Values = ReturnType<typeof useSearchState<(typeof KEYS)[number]>>['values'];
type Setter = ReturnType<typeof useSearchState<(typeof KEYS)[number]>>['set'];

/** Code and user search: typed freely, put in the URL when submitted. */
function SearchBox({ values, set, userLabel }: { values: Values; set: Setter; userLabel: string }) {
  const [code, setCode] = useState(values.code ?? '');
  const [user, setUser] = useState(values.user ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    set({ code: code.trim() || null, user: user.trim() || null });
  };
  return (
    <form onSubmit={submit} role="search" aria-label="Search referrals">
      <Group align="flex-end" wrap="wrap">
        <TextInput label="Referral code" value={code} onChange={(e) => setCode(e.currentTarget.value)} w={{ base: '100%', xs: 180 }} />
        <TextInput label={userLabel} value={user} onChange={(e) => setUser(e.currentTarget.value)} w={{ base: '100%', xs: 180 }} />
        <Button type="submit" variant="light">
          Search
        </Button>
      </Group>
    </form>
  );
}

/**
 * A referral is a referrer's code, which may convert many referees: the list
 * says what the API has per code (its status, what it earned) and opens the
 * conversions made through it. A referral's own `refereeId` is only the
 * referee it was created for (POST /referrals with refereeId), rarely set,
 * so it is a note under the code rather than a column of dashes.
 */
function ReferralsTab({ values, set, page }: { values: Values; set: Setter; page: number }) {
  const api = useApi();
  const appId = useAppId();
  const byCode = useQuery({
    queryKey: ['app', appId, 'referral', values.code],
    queryFn: () => ok(api.GET('/api/v1/referrals/{referralCode}', { params: { path: { referralCode: values.code! } } })).then((d) => [d.referral]),
    enabled: values.code !== null,
    retry: false,
  });
  // A referral carries no currency: its campaign's.
  const currencies = useCampaignCurrencies();
  const filters = { ...(values.campaignId ? { campaignId: values.campaignId } : {}), ...(values.user ? { referrerId: values.user } : {}) };
  const list = useQuery({
    queryKey: ['app', appId, 'referrals', values.campaignId, values.user, page],
    queryFn: () => ok(api.GET('/api/v1/referrals', { params: { query: { page, limit: 25, ...filters } } })),
    enabled: values.code === null,
    placeholderData: keepPreviousData,
  });
  const table = (referrals: NonNullable<typeof byCode.data>) => (
    <Table.ScrollContainer minWidth={820}>
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Code</Table.Th>
            <Table.Th>Referrer</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Earned</Table.Th>
            <Table.Th>Conversions</Table.Th>
            <Table.Th>Campaign</Table.Th>
            <Table.Th>Created</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {referrals.map((r) => (
            <Table.Tr key={r.id}>
              <Table.Td>
                <Text ff="monospace" size="sm">
                  {r.referralCode}
                </Text>
                {r.isFlagged && <StatusBadge status="FLAGGED" />}
                {r.refereeId && (
                  <Text size="xs" c="dimmed">
                    created for {r.refereeId}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Anchor component={Link} to={`/apps/${encodeURIComponent(appId)}/users?userId=${encodeURIComponent(r.referrerId)}`}>
                  {r.referrerId}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <StatusBadge status={r.status} />
              </Table.Td>
              <Table.Td>{formatValue(r.rewardAmount, currencies.of(r.Campaign.id))}</Table.Td>
              <Table.Td>
                {/* The code's conversions (rejected ones not counted): the conversions tab lists them all, by this code. */}
                {r.conversions > 0 ? (
                  <Button size="compact-sm" variant="subtle" onClick={() => set({ tab: 'conversions', code: r.referralCode, user: null, status: null })} aria-label={`Conversions through ${r.referralCode}`}>
                    {formatNumber(r.conversions)}
                  </Button>
                ) : (
                  <Text size="sm" c="dimmed">
                    none yet
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{r.Campaign.name}</Table.Td>
              <Table.Td>{formatDateTime(r.createdAt)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );

  if (values.code !== null) {
    if (byCode.error instanceof ApiError && byCode.error.status === 404) {
      return <Empty title={`No referral has the code ${values.code}`} description="Codes are matched exactly." />;
    }
    return <QueryView query={byCode}>{table}</QueryView>;
  }
  return (
    <QueryView
      query={list}
      isEmpty={(d) => d.referrals.length === 0}
      empty={
        <Empty
          title="No referrals"
          description={
            values.user
              ? `${values.user} has no referral code${values.campaignId ? ' in this campaign' : ''}.`
              : `Nobody has a referral code${values.campaignId ? ' in this campaign' : ''} yet.`
          }
        />
      }
    >
      {(d) => (
        <Stack>
          <Group justify="flex-end">
            <ExportButton path="/api/v1/referrals/export" query={filters} label="Export referrals" />
          </Group>
          {table(d.referrals)}
          <UrlPagination pagination={d.pagination} label="referrals" />
        </Stack>
      )}
    </QueryView>
  );
}

function ConversionsTab({ values, set, page }: { values: Values; set: Setter; page: number }) {
  const api = useApi();
  const appId = useAppId();
  const status = CONVERSION_STATUSES.find((s) => s === values.status);
  const filters = {
    ...(values.campaignId ? { campaignId: values.campaignId } : {}),
    ...(values.code ? { referralCode: values.code } : {}),
    ...(values.user ? { userId: values.user } : {}),
    ...(status ? { status } : {}),
  };
  const list = useQuery({
    queryKey: ['app', appId, 'conversions', values.campaignId, values.code, values.user, status, page],
    queryFn: () => ok(api.GET('/api/v1/conversions', { params: { query: { page, limit: 25, ...filters } } })),
    placeholderData: keepPreviousData,
  });
  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Select
          label="Status"
          placeholder="Any status"
          clearable
          data={CONVERSION_STATUSES.map((s) => ({ value: s, label: s.toLowerCase() }))}
          value={status ?? null}
          onChange={(v) => set({ status: v })}
          w={200}
        />
        <ExportButton path="/api/v1/conversions/export" query={filters} label="Export conversions" />
      </Group>
      <QueryView query={list} isEmpty={(d) => d.conversions.length === 0} empty={<Empty title="No conversions" description="No conversion matches these filters." />}>
        {(d) => (
          <Stack>
            <Table.ScrollContainer minWidth={880}>
              <Table striped highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Referee</Table.Th>
                    <Table.Th>Referrer</Table.Th>
                    <Table.Th>Level</Table.Th>
                    <Table.Th>Code</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Sale</Table.Th>
                    <Table.Th>Reward</Table.Th>
                    <Table.Th>Converted</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Details</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {d.conversions.map((c) => (
                    <Table.Tr key={c.id}>
                      <Table.Td>{c.refereeId}</Table.Td>
                      <Table.Td>{c.referrerId}</Table.Td>
                      <Table.Td>{c.level}</Table.Td>
                      <Table.Td>
                        <Text ff="monospace" size="sm">
                          {c.referralCode}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <StatusBadge status={c.status} />
                      </Table.Td>
                      <Table.Td>
                        <RecordSale record={c} />
                      </Table.Td>
                      <Table.Td>
                        <RecordReward record={c} />
                      </Table.Td>
                      <Table.Td>{formatDateTime(c.convertedAt)}</Table.Td>
                      <Table.Td>
                        {/* A funnel record (PENDING, CLICKED) is no conversion yet: nothing to open. */}
                        {isConverted(c) && (
                          <Button size="compact-sm" variant="light" onClick={() => set({ conversion: c.conversionId, referee: c.refereeId })} aria-label={`Details of the conversion of ${c.refereeId}`}>
                            Open
                          </Button>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <UrlPagination pagination={d.pagination} label="conversion records" />
          </Stack>
        )}
      </QueryView>
    </Stack>
  );
}

export function ReferralsPage() {
  const { values, set, page } = useSearchState(KEYS);
  const campaigns = useCampaignOptions();
  const tab = values.tab === 'conversions' ? 'conversions' : 'referrals';
  return (
    <>
      <PageHeader title="Referrals & conversions" description="Find a referral by its code or its referrer, and follow a conversion up its levels." />
      <Paper withBorder p="sm" mb="md">
        <Group align="flex-end" wrap="wrap">
          <Select
            label="Campaign"
            placeholder="Every campaign"
            clearable
            searchable
            data={campaigns.data ?? []}
            value={values.campaignId}
            onChange={(v) => set({ campaignId: v })}
            w={{ base: '100%', xs: 260 }}
          />
          <SearchBox key={`${values.code}|${values.user}`} values={values} set={set} userLabel={tab === 'referrals' ? 'Referrer (user id)' : 'User id'} />
        </Group>
      </Paper>
      <Tabs value={tab} onChange={(v) => set({ tab: v === 'conversions' ? 'conversions' : null, status: null })}>
        <Tabs.List mb="md">
          <Tabs.Tab value="referrals">Referrals</Tabs.Tab>
          <Tabs.Tab value="conversions">Conversions</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="referrals">{tab === 'referrals' && <ReferralsTab values={values} set={set} page={page} />}</Tabs.Panel>
        <Tabs.Panel value="conversions">{tab === 'conversions' && <ConversionsTab values={values} set={set} page={page} />}</Tabs.Panel>
      </Tabs>
      <ConversionDrawer conversionId={values.conversion} refereeId={values.referee} campaignId={values.campaignId} onClose={() => set({ conversion: null, referee: null })} />
    </>
  );
}
