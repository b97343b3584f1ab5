import { Group, Select, Stack } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ok } from '../../api/api-error';
import type { Query } from '../../api/types';
import { useApi, useAppId } from '../../api/use-api';
import { DataTable } from '../../ui/data-table';
import { formatDateTime, formatNumber, formatValue } from '../../ui/format';
import { PageHeader } from '../../ui/page-header';
import { Empty, QueryView, TableSkeleton } from '../../ui/query-state';
import { TextSearch } from '../../ui/text-search';
import { UrlPagination } from '../../ui/url-pagination';
import { UserLink } from '../../ui/user-link';
import { useSearchState } from '../../url/search-state';
import { ExportButton } from '../../ui/export-button';
import { useCampaignCurrencies } from '../campaigns/use-campaigns';

type Sort = NonNullable<Query<'/api/v1/participants'>['sort']>;

const SORTS: Array<{ value: Sort; label: string }> = [
  { value: 'LAST_ACTIVITY', label: 'Last activity' },
  { value: 'REFERRALS', label: 'Most referrals' },
  { value: 'CONVERSIONS', label: 'Most conversions' },
  { value: 'REWARD_VALUE', label: 'Most reward value' },
  { value: 'COINS', label: 'Most coins' },
  { value: 'USER_ID', label: 'User id' },
];

const KEYS = ['q', 'sort'] as const;

/**
 * The app's people: referrers, referees and incentive users in one list
 * (GET /participants), found by a prefix of their id or e-mail address,
 * sorted and paged by the server; each opens the user's page.
 */
export function ParticipantsPage() {
  const api = useApi();
  const appId = useAppId();
  const { values, set, page } = useSearchState(KEYS);
  // A participant's reward value sums every campaign: in the app's one currency, else a plain number.
  const currency = useCampaignCurrencies().of(null);
  const sort = SORTS.find((s) => s.value === values.sort)?.value ?? 'LAST_ACTIVITY';
  const filters = { ...(values.q ? { q: values.q } : {}), sort };
  const participants = useQuery({
    queryKey: ['app', appId, 'participants', values.q, sort, page],
    queryFn: () => ok(api.GET('/api/v1/participants', { params: { query: { ...filters, page, limit: 25 } } })),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <PageHeader
        title="Participants"
        description="Everyone your referral program and incentive engine have seen: their referrals, conversions, reward value and coins."
        actions={<ExportButton path="/api/v1/participants/export" query={filters} label="Export participants" />}
      />
      <Group mb="md" align="flex-end" wrap="wrap">
        <TextSearch
          label="Find a participant"
          formLabel="Find a participant"
          placeholder="User id or e-mail, first letters"
          initial={values.q}
          onSearch={(q) => set({ q })}
          submitLabel="Find"
          width={260}
        />
        <Select label="Sort by" data={SORTS} value={sort} onChange={(v) => set({ sort: v === 'LAST_ACTIVITY' ? null : v })} allowDeselect={false} w={200} />
      </Group>
      <QueryView
        query={participants}
        skeleton={<TableSkeleton rows={8} label="Loading participants" />}
        isEmpty={(d) => d.participants.length === 0}
        empty={<Empty title="No participants" description={values.q ? 'Nobody matches this search.' : 'Nobody has taken part yet.'} />}
      >
        {(d) => (
          <Stack>
            <DataTable
              label="Participants"
              rows={d.participants}
              rowKey={(p) => p.userId}
              minWidth={900}
              columns={[
                { label: 'User', cell: (p) => <UserLink userId={p.userId} /> },
                { label: 'E-mail', cell: (p) => p.email ?? '—' },
                { label: 'Referrals', cell: (p) => formatNumber(p.referrals) },
                { label: 'Conversions', cell: (p) => formatNumber(p.conversions) },
                { label: 'Reward value', cell: (p) => formatValue(p.rewardValue, currency) },
                { label: 'Coins', cell: (p) => formatNumber(p.coins) },
                { label: 'Level', cell: (p) => (p.level > 0 ? formatNumber(p.level) : '—') },
                { label: 'Referred by', cell: (p) => (p.referredBy ? <UserLink userId={p.referredBy} /> : '—') },
                { label: 'Last activity', cell: (p) => formatDateTime(p.lastActivityAt) },
              ]}
            />
            <UrlPagination pagination={d.pagination} label="participants" />
          </Stack>
        )}
      </QueryView>
    </>
  );
}
