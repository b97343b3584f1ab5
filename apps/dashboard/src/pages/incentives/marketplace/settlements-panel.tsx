import { Group, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ok } from '../../../api/api-error';
import type { MarketplaceSettlements } from '../../../api/types';
import { useApi, useAppId } from '../../../api/use-api';
import { DataTable } from '../../../ui/data-table';
import { Figure } from '../../../ui/figure';
import { formatNumber } from '../../../ui/format';
import { Empty, QueryView, TableSkeleton } from '../../../ui/query-state';
import { SegmentedField } from '../../../ui/segmented-field';
import { useSearchState } from '../../../url/search-state';
import { useAppNames } from './app-names';

const KEYS = ['as', 'listingId'] as const;
type Side = MarketplaceSettlements['as'];

/** One row per counterpart app and listing: what was redeemed between the two apps. */
export function settlementRows(settlements: MarketplaceSettlements) {
  return settlements.counterparts.flatMap((c) =>
    c.listings.map((l) => ({ key: `${c.appId}:${l.listingId}`, appId: c.appId, listingId: l.listingId, title: l.title, ...l.totals })),
  );
}

/** What the app and each other app owe each other: codes issued and the coins and tokens they cost, per partner app and listing. */
export function SettlementsPanel({ listingOptions }: { listingOptions: Array<{ value: string; label: string }> }) {
  const api = useApi();
  const appId = useAppId();
  const appName = useAppNames();
  const { values, set } = useSearchState(KEYS);
  const side: Side = values.as === 'redeemer' ? 'redeemer' : 'provider';
  const settlements = useQuery({
    queryKey: ['app', appId, 'marketplace', 'settlements', side, values.listingId],
    queryFn: () => ok(api.GET('/api/v1/incentives/marketplace/settlements', { params: { query: { as: side, ...(values.listingId && side === 'provider' ? { listingId: values.listingId } : {}) } } })),
  });
  return (
    <Stack>
      <Group align="flex-end" wrap="wrap">
        <SegmentedField
          label="Side"
          value={side}
          onChange={(v) => set({ as: v === 'provider' ? null : v, listingId: null })}
          data={[
            { value: 'provider', label: 'Your listings' },
            { value: 'redeemer', label: 'Your users’ codes' },
          ]}
        />
        {side === 'provider' && (
          <Select label="Listing" placeholder="Every listing" clearable searchable data={listingOptions} value={values.listingId} onChange={(v) => set({ listingId: v })} w={{ base: '100%', xs: 280 }} />
        )}
      </Group>
      <Text size="sm" c="dimmed">
        {side === 'provider'
          ? 'Codes your listings issued to users of each partner app, and the coins and tokens those users paid: what each partner owes your business.'
          : 'Codes your users took for partner businesses’ listings, and the coins and tokens they paid: what your app owes each partner.'}
      </Text>
      <QueryView query={settlements} skeleton={<TableSkeleton rows={3} label="Loading the settlements" />} isEmpty={(s) => s.counterparts.length === 0} empty={<Empty title="Nothing to settle" description="No code has been issued between this app and another yet." />}>
        {(s) => (
          <Stack>
            <SimpleGrid cols={{ base: 1, xs: 3 }}>
              <Figure label="Codes issued" value={formatNumber(s.totals.redemptions)} />
              <Figure label="Coins" value={formatNumber(s.totals.coins)} />
              <Figure label="Tokens" value={formatNumber(s.totals.tokens)} />
            </SimpleGrid>
            <DataTable
              label="Settlements per partner app"
              rows={s.counterparts}
              rowKey={(c) => c.appId}
              minWidth={520}
              columns={[
                { label: 'Partner app', cell: (c) => <Text size="sm">{appName(c.appId)}</Text> },
                { label: 'Codes', cell: (c) => formatNumber(c.totals.redemptions) },
                { label: 'Coins', cell: (c) => formatNumber(c.totals.coins) },
                { label: 'Tokens', cell: (c) => formatNumber(c.totals.tokens) },
              ]}
            />
            <DataTable
              label="Settlements per partner app and listing"
              rows={settlementRows(s)}
              rowKey={(r) => r.key}
              minWidth={640}
              columns={[
                { label: 'Partner app', cell: (r) => <Text size="sm">{appName(r.appId)}</Text> },
                { label: 'Listing', cell: (r) => r.title },
                { label: 'Codes', cell: (r) => formatNumber(r.redemptions) },
                { label: 'Coins', cell: (r) => formatNumber(r.coins) },
                { label: 'Tokens', cell: (r) => formatNumber(r.tokens) },
              ]}
            />
          </Stack>
        )}
      </QueryView>
    </Stack>
  );
}
