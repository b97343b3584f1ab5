import { Code, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ok } from '../../api/api-error';
import { useApi, useAppId } from '../../api/use-api';
import { DataTable } from '../../ui/data-table';
import { formatDateTime } from '../../ui/format';
import { Empty, QueryView } from '../../ui/query-state';
import { StatusBadge } from '../../ui/status-badge';
import { UrlPagination } from '../../ui/url-pagination';
import { discountText } from '../incentives/marketplace/listing-request';
import { costText } from '../incentives/cost-fields';
import { useAppNames } from '../incentives/marketplace/app-names';

/** Marketplace codes the user took with their coins, at this app's or partner businesses. */
export function UserMarketplaceCodes({ userId, page }: { userId: string; page: number }) {
  const api = useApi();
  const appId = useAppId();
  const appName = useAppNames();
  const codes = useQuery({
    queryKey: ['app', appId, 'user', userId, 'marketplace', page],
    queryFn: () => ok(api.GET('/api/v1/incentives/marketplace/redemptions', { params: { query: { as: 'redeemer', userId, page, limit: 25 } } })),
    placeholderData: keepPreviousData,
  });
  return (
    <QueryView query={codes} isEmpty={(d) => d.redemptions.length === 0} empty={<Empty title="No marketplace codes" description="Codes the user redeems from the marketplace show here." />}>
      {(d) => (
        <Stack>
          <DataTable
            label="Marketplace codes"
            rows={d.redemptions}
            rowKey={(r) => r.id}
            minWidth={820}
            columns={[
              { label: 'Issued', cell: (r) => formatDateTime(r.createdAt) },
              { label: 'Listing', cell: (r) => r.listingTitle },
              { label: 'Business', cell: (r) => <Text size="sm" ff="monospace">{appName(r.listingAppId)}</Text> },
              { label: 'Code', cell: (r) => <Code>{r.discountCode}</Code> },
              { label: 'Paid', cell: (r) => `${costText(r)} · ${discountText(r.discount)}` },
              { label: 'Status', cell: (r) => <StatusBadge status={r.status} /> },
            ]}
          />
          <UrlPagination pagination={d.pagination} label="codes" />
        </Stack>
      )}
    </QueryView>
  );
}
