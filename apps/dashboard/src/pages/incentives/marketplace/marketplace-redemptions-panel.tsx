import { Code, Group, Select, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ok } from '../../../api/api-error';
import { useApi, useAppId } from '../../../api/use-api';
import { DataTable } from '../../../ui/data-table';
import { formatDateTime } from '../../../ui/format';
import { Empty, QueryView } from '../../../ui/query-state';
import { StatusBadge } from '../../../ui/status-badge';
import { UrlPagination } from '../../../ui/url-pagination';
import { useSearchState } from '../../../url/search-state';
import { costText } from '../cost-fields';
import { discountText } from './listing-request';
import { useAppNames } from './app-names';

const KEYS = ['listingId'] as const;

/** Codes issued for the app's listings to users of other apps (their user ids are not shown to the provider). */
export function MarketplaceRedemptionsPanel({ listingOptions }: { listingOptions: Array<{ value: string; label: string }> }) {
  const api = useApi();
  const appId = useAppId();
  const appName = useAppNames();
  const { values, set, page } = useSearchState(KEYS);
  const redemptions = useQuery({
    queryKey: ['app', appId, 'marketplace', 'redemptions', 'provider', values.listingId, page],
    queryFn: () =>
      ok(api.GET('/api/v1/incentives/marketplace/redemptions', { params: { query: { as: 'provider', page, limit: 25, ...(values.listingId ? { listingId: values.listingId } : {}) } } })),
    placeholderData: keepPreviousData,
  });
  return (
    <Stack>
      <Group align="flex-end" wrap="wrap">
        <Select label="Listing" placeholder="Every listing" clearable searchable data={listingOptions} value={values.listingId} onChange={(v) => set({ listingId: v })} w={{ base: '100%', xs: 280 }} />
      </Group>
      <QueryView query={redemptions} isEmpty={(d) => d.redemptions.length === 0} empty={<Empty title="No codes issued" description="Codes appear here when users of any app redeem your listings." />}>
        {(d) => (
          <Stack>
            <DataTable
              label="Codes issued for your listings"
              rows={d.redemptions}
              rowKey={(r) => r.id}
              minWidth={860}
              columns={[
                { label: 'Issued', cell: (r) => formatDateTime(r.createdAt) },
                { label: 'Listing', cell: (r) => r.listingTitle },
                { label: 'Code', cell: (r) => <Code>{r.discountCode}</Code> },
                {
                  label: 'Redeemed from',
                  cell: (r) => (
                    <Text size="sm" ff="monospace">
                      {appName(r.appId)}
                    </Text>
                  ),
                },
                { label: 'Paid', cell: (r) => `${costText(r)} · ${discountText(r.discount)}` },
                {
                  label: 'Status',
                  cell: (r) => (
                    <>
                      <StatusBadge status={r.status} />
                      <Text size="xs" c="dimmed">
                        until {formatDateTime(r.expiresAt)}
                      </Text>
                    </>
                  ),
                },
              ]}
            />
            <UrlPagination pagination={d.pagination} label="codes" />
          </Stack>
        )}
      </QueryView>
    </Stack>
  );
}
