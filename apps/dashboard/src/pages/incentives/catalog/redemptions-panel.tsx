import { Group, Select, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ok } from '../../../api/api-error';
import type { Redemption, RedemptionStatus } from '../../../api/types';
import { useApi, useAppId } from '../../../api/use-api';
import { RoleGate } from '../../../session/session-context';
import { ConfirmButton } from '../../../ui/confirm-button';
import { DataTable } from '../../../ui/data-table';
import { formatDateTime } from '../../../ui/format';
import { Empty, QueryView } from '../../../ui/query-state';
import { StatusBadge } from '../../../ui/status-badge';
import { TextSearch } from '../../../ui/text-search';
import { UrlPagination } from '../../../ui/url-pagination';
import { UserLink } from '../../../ui/user-link';
import { useChange } from '../../../ui/use-change';
import { useSearchState } from '../../../url/search-state';
import { costText } from '../cost-fields';
import { useItemOptions } from './use-item-options';

const KEYS = ['status', 'userId', 'itemId'] as const;
const STATUSES: RedemptionStatus[] = ['PENDING', 'FULFILLED', 'CANCELLED'];

/** What an operator may do to a redemption: only a PENDING one moves, to FULFILLED or to CANCELLED (refunded and restocked). */
function RedemptionActions({ redemption }: { redemption: Redemption }) {
  const api = useApi();
  const move = useChange({
    mutationFn: (status: 'FULFILLED' | 'CANCELLED') =>
      ok(api.PATCH('/api/v1/incentives/redemptions/{redemptionId}', { params: { path: { redemptionId: redemption.id } }, body: { status } })),
    // The item's stock and the user's balance change with a cancellation.
    invalidates: [['catalog'], ['user', redemption.userId]],
    success: (_r, status) => (status === 'FULFILLED' ? `“${redemption.itemName}” for ${redemption.userId} fulfilled.` : `Cancelled: ${costText(redemption)} refunded to ${redemption.userId}, the unit restocked.`),
  });
  if (redemption.status !== 'PENDING') return null;
  return (
    <RoleGate least="MANAGER">
      <Group gap={4} wrap="nowrap">
        <ConfirmButton
          size="compact-sm"
          variant="light"
          color="green"
          title={`Fulfil “${redemption.itemName}” for ${redemption.userId}?`}
          message="The user has received the item. A fulfilled redemption can no longer be cancelled."
          confirmLabel="Fulfil"
          loading={move.isPending}
          onConfirm={() => move.mutateAsync('FULFILLED')}
          aria-label={`Fulfil the redemption of ${redemption.itemName} by ${redemption.userId}`}
        >
          Fulfil
        </ConfirmButton>
        <ConfirmButton
          size="compact-sm"
          variant="subtle"
          color="red"
          title={`Cancel “${redemption.itemName}” for ${redemption.userId}?`}
          message={`${costText(redemption)} go back to ${redemption.userId}, and the unit back to stock.`}
          confirmLabel="Cancel redemption"
          loading={move.isPending}
          onConfirm={() => move.mutateAsync('CANCELLED')}
          aria-label={`Cancel the redemption of ${redemption.itemName} by ${redemption.userId}`}
        >
          Cancel
        </ConfirmButton>
      </Group>
    </RoleGate>
  );
}

/**
 * Catalog redemptions by status, user and item; fulfil or cancel the pending
 * ones. On a user's page (`forUser`) the list is theirs, without a user filter.
 */
export function RedemptionsPanel({ forUser }: { forUser?: string }) {
  const api = useApi();
  const appId = useAppId();
  const { values, set, page } = useSearchState(KEYS);
  const status = STATUSES.find((s) => s === values.status);
  const items = useItemOptions();
  const userId = forUser ?? values.userId;
  const redemptions = useQuery({
    queryKey: ['app', appId, 'catalog', 'redemptions', status, userId, values.itemId, page],
    queryFn: () =>
      ok(
        api.GET('/api/v1/incentives/redemptions', {
          params: {
            query: {
              page,
              limit: 25,
              ...(status ? { status } : {}),
              ...(userId ? { userId } : {}),
              ...(values.itemId ? { itemId: values.itemId } : {}),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  return (
    <Stack>
      <Group align="flex-end" wrap="wrap">
        {forUser === undefined && (
          <TextSearch label="User id" formLabel="Filter redemptions by user" initial={values.userId} onSearch={(v) => set({ userId: v })} width={180} />
        )}
        <Select label="Status" placeholder="Any status" clearable data={STATUSES.map((s) => ({ value: s, label: s.toLowerCase() }))} value={status ?? null} onChange={(v) => set({ status: v })} w={170} />
        <Select label="Item" placeholder="Any item" clearable searchable data={items.data ?? []} value={values.itemId} onChange={(v) => set({ itemId: v })} w={{ base: '100%', xs: 240 }} />
      </Group>
      <QueryView query={redemptions} isEmpty={(d) => d.redemptions.length === 0} empty={<Empty title="No redemptions" description="No redemption matches these filters." />}>
        {(d) => (
          <Stack>
            <DataTable
              label="Redemptions"
              rows={d.redemptions}
              rowKey={(r) => r.id}
              minWidth={820}
              rowProps={() => ({ 'data-testid': 'redemption-row' })}
              columns={[
                { label: 'Redeemed', cell: (r) => formatDateTime(r.redeemedAt) },
                {
                  label: 'User',
                  cell: (r) => <UserLink userId={r.userId} tab="catalog" />,
                },
                {
                  label: 'Item',
                  cell: (r) => (
                    <>
                      {r.itemName}
                      <Text size="xs" c="dimmed">
                        {r.id}
                      </Text>
                    </>
                  ),
                },
                { label: 'Paid', cell: (r) => costText(r) },
                {
                  label: 'Status',
                  cell: (r) => (
                    <>
                      <StatusBadge status={r.status} />
                      {r.status !== 'PENDING' && (
                        <Text size="xs" c="dimmed">
                          {formatDateTime(r.fulfilledAt ?? r.cancelledAt)}
                        </Text>
                      )}
                    </>
                  ),
                },
                { label: 'Actions', hiddenLabel: true, cell: (r) => <RedemptionActions redemption={r} /> },
              ]}
            />
            <UrlPagination pagination={d.pagination} label="redemptions" />
          </Stack>
        )}
      </QueryView>
    </Stack>
  );
}
