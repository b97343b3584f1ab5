import { Group, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ok } from '../../api/api-error';
import { useApi, useAppId } from '../../api/use-api';
import { DataTable } from '../../ui/data-table';
import { ExportButton } from '../../ui/export-button';
import { formatAmounts, formatDateTime } from '../../ui/format';
import { Empty, QueryView } from '../../ui/query-state';
import { UrlPagination } from '../../ui/url-pagination';
import { causeOf } from './ledger-cause';

/** Every movement of the user's balances, newest first, with its cause and the balance after it. */
export function UserLedger({ userId, page }: { userId: string; page: number }) {
  const api = useApi();
  const appId = useAppId();
  const ledger = useQuery({
    queryKey: ['app', appId, 'user', userId, 'ledger', page],
    queryFn: () => ok(api.GET('/api/v1/incentives/balances/{userId}/transactions', { params: { path: { userId }, query: { page, limit: 25 } } })),
    placeholderData: keepPreviousData,
  });
  return (
    <QueryView query={ledger} isEmpty={(d) => d.transactions.length === 0} empty={<Empty title="No movements yet" description="Events, rewards, redemptions and adjustments show here." />}>
      {(d) => (
        <Stack>
          <Group justify="flex-end">
            <ExportButton path="/api/v1/incentives/balances/{userId}/transactions/export" pathParams={{ userId }} label={`Export the ledger of ${userId}`} />
          </Group>
          <DataTable
            label="Ledger"
            rows={d.transactions}
            rowKey={(t) => t.id}
            minWidth={860}
            rowProps={() => ({ 'data-testid': 'ledger-row' })}
            columns={[
              { label: '#', cell: (t) => t.seq },
              { label: 'When', cell: (t) => formatDateTime(t.createdAt) },
              { label: 'Cause', cell: (t) => causeOf(t) },
              { label: 'Change', cell: (t) => <Text size="sm" c={t.coins < 0 || t.tokens < 0 || t.xp < 0 ? 'red' : 'teal'}>{formatAmounts(t, { signed: true })}</Text> },
              { label: 'Balance after', cell: (t) => formatAmounts(t.balanceAfter) },
              {
                label: 'Details',
                cell: (t) => (
                  <>
                    <Text size="sm">{t.description ?? t.actionKey ?? '—'}</Text>
                    <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
                      {t.sourceId}
                    </Text>
                  </>
                ),
              },
            ]}
          />
          <UrlPagination pagination={d.pagination} label="movements" />
        </Stack>
      )}
    </QueryView>
  );
}
