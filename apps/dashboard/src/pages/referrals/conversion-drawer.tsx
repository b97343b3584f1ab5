import { Badge, Button, Drawer, Group, SimpleGrid, Stack, Text, Timeline, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { ok } from '../../api/api-error';
import { useApi, useAppId } from '../../api/use-api';
import { RoleGate } from '../../session/session-context';
import { DataTable } from '../../ui/data-table';
import { Field } from '../../ui/field';
import { formatDateTime, formatMoney } from '../../ui/format';
import { Empty, QueryView, TableSkeleton } from '../../ui/query-state';
import { StatusBadge } from '../../ui/status-badge';
import { conversionChain } from './conversion-chain';
import { RecordReward, RecordSale } from './conversion-record';
import { ReverseModal } from './reverse-modal';
import { OWN_SALE, reasonText, reversibleSales, type Purchase } from './reversal-form';

/** A sale's reversed part in words: `$10.00 reversed`, `reversed in full`, or nothing. */
function reversedText(sale: { reversedAmount: number; currency: string }, full: boolean): string {
  if (full) return 'reversed in full';
  return sale.reversedAmount > 0 ? `${formatMoney(sale.reversedAmount, sale.currency)} reversed` : '—';
}

/** The conversion's later purchases (a recurring campaign's): each sale, when, your id of it, what reversals took. */
function Purchases({ conversionId }: { conversionId: string }) {
  const purchases = usePurchases(conversionId);
  return (
    <QueryView query={purchases} skeleton={<TableSkeleton rows={2} label="Loading the purchases" />} isEmpty={(d) => d.purchases.length === 0} empty={<Text size="sm" c="dimmed">No later purchases.</Text>}>
      {(d) => (
        <DataTable
          label="Purchases"
          minWidth={480}
          rows={d.purchases}
          rowKey={(p) => p.id}
          columns={[
            { label: 'Amount', cell: (p) => formatMoney(p.amount, p.currency) },
            { label: 'Occurred', cell: (p) => formatDateTime(p.occurredAt) },
            { label: 'External id', cell: (p) => p.externalId ?? '—' },
            { label: 'Reversed', cell: (p) => reversedText(p, p.status === 'REVERSED') },
          ]}
        />
      )}
    </QueryView>
  );
}

/** The conversion's purchases (the newest 100: a conversion has a handful). */
function usePurchases(conversionId: string) {
  const api = useApi();
  const appId = useAppId();
  return useQuery({
    queryKey: ['app', appId, 'conversion', conversionId, 'purchases'],
    queryFn: () => ok(api.GET('/api/v1/conversions/{conversionId}/purchases', { params: { path: { conversionId }, query: { limit: 100 } } })),
  });
}

/** Refunds, chargebacks and cancellations of the conversion and its purchases, newest first: what each took off the sale and its rewards. */
function Reversals({ conversionId, purchases }: { conversionId: string; purchases: readonly Purchase[] }) {
  const api = useApi();
  const appId = useAppId();
  const reversals = useQuery({
    queryKey: ['app', appId, 'conversion', conversionId, 'reversals'],
    queryFn: () => ok(api.GET('/api/v1/conversions/{conversionId}/reversals', { params: { path: { conversionId }, query: { limit: 100 } } })),
  });
  const saleOf = (purchaseId: string | null) => {
    if (purchaseId === null) return 'the conversion';
    const purchase = purchases.find((p) => p.id === purchaseId);
    return `purchase ${purchase?.externalId ?? purchaseId}`;
  };
  return (
    <QueryView query={reversals} skeleton={<TableSkeleton rows={2} label="Loading the reversals" />} isEmpty={(d) => d.reversals.length === 0} empty={<Text size="sm" c="dimmed">No reversals.</Text>}>
      {(d) => (
        <DataTable
          label="Reversals"
          minWidth={520}
          rows={d.reversals}
          rowKey={(r) => r.id}
          rowProps={() => ({ 'data-testid': 'reversal-row' })}
          columns={[
            { label: 'When', cell: (r) => formatDateTime(r.createdAt) },
            {
              label: 'Reversed',
              cell: (r) => (
                <Stack gap={2} align="flex-start">
                  <span>
                    {formatMoney(r.amount, r.currency)} · {reasonText(r.reason)}
                  </span>
                  <Group gap={4}>
                    <Text size="xs" c="dimmed">
                      {saleOf(r.purchaseId)}
                    </Text>
                    <Badge size="xs" variant="light" color={r.full ? 'red' : 'orange'}>
                      {r.full ? 'full' : 'partial'}
                    </Badge>
                  </Group>
                </Stack>
              ),
            },
            {
              label: 'Reward value',
              cell: (r) => (
                <Stack gap={2}>
                  <span>{formatMoney(r.rewardAmountReversed, r.currency)} taken back</span>
                  {r.clawbackAmount > 0 && (
                    <Text size="xs" c="dimmed">
                      {formatMoney(r.clawbackAmount, r.currency)} owed back
                    </Text>
                  )}
                </Stack>
              ),
            },
            { label: 'Note', cell: (r) => r.note ?? '—' },
          ]}
        />
      )}
    </QueryView>
  );
}

/**
 * One conversion: its sale and what is left of it, the chain of referrers
 * above the referee (each level's code and reward), its later purchases and
 * its reversals; an OWNER or MANAGER reverses it (or a purchase) from here.
 * GET /conversions has no read of one conversion: its records are the
 * referee's (every level of theirs), the level-1 one its own.
 */
export function ConversionDrawer({
  conversionId,
  refereeId,
  campaignId,
  onClose,
}: {
  conversionId: string | null;
  refereeId: string | null;
  campaignId: string | null;
  onClose: () => void;
}) {
  const api = useApi();
  const appId = useAppId();
  const open = conversionId !== null && refereeId !== null;
  const records = useQuery({
    queryKey: ['app', appId, 'conversion-chain', refereeId, campaignId],
    queryFn: () =>
      ok(
        api.GET('/api/v1/conversions', {
          params: { query: { userId: refereeId!, limit: 100, ...(campaignId ? { campaignId } : {}) } },
        }),
      ),
    enabled: open,
  });
  const chain = records.data && conversionId ? conversionChain(records.data.conversions, conversionId) : [];
  return (
    <Drawer opened={open} onClose={onClose} position="right" title="Conversion" size="lg">
      {records.isPending ? (
        <TableSkeleton rows={3} label="Loading the conversion" />
      ) : chain.length === 0 ? (
        <Empty title="No records" description="This conversion's records were not found." />
      ) : (
        <ConversionDetails chain={chain} />
      )}
    </Drawer>
  );
}

function ConversionDetails({ chain }: { chain: ReturnType<typeof conversionChain> }) {
  const root = chain[0]!;
  const purchases = usePurchases(root.conversionId);
  const [reversing, { open, close }] = useDisclosure(false);
  const bought = purchases.data?.purchases ?? [];
  const sales = reversibleSales(root, bought);
  const own = sales.find((s) => s.value === OWN_SALE);
  return (
    <Stack>
      <Text size="sm">
        Referee <strong>{root.refereeId}</strong> converted through code <strong>{root.originalReferralCode}</strong>
        {root.Campaign ? ` in ${root.Campaign.name}` : ''}.
      </Text>
      <SimpleGrid cols={2}>
        <Field label="Status">
          <StatusBadge status={root.status} />
        </Field>
        <Field label="Converted">{formatDateTime(root.convertedAt)}</Field>
        <Field label="Sale">{root.amount === null ? 'no amount recorded' : <RecordSale record={root} />}</Field>
        <Field label="Left to reverse">{own ? (own.left === null ? 'all of it' : formatMoney(own.left, root.currency)) : 'nothing'}</Field>
      </SimpleGrid>
      <RoleGate least="MANAGER">
        {root.status !== 'REJECTED' && (
          <Group gap="xs">
            <Button color="red" variant="light" onClick={open} disabled={purchases.isPending || sales.length === 0}>
              Reverse
            </Button>
            {!purchases.isPending && sales.length === 0 && (
              <Text size="xs" c="dimmed">
                Nothing is left to reverse.
              </Text>
            )}
          </Group>
        )}
        <ReverseModal opened={reversing} onClose={close} conversion={root} purchases={bought} />
      </RoleGate>
      <Title order={3} size="h5">
        Levels
      </Title>
      <Timeline active={chain.length} bulletSize={20} lineWidth={2}>
        {chain.map((record) => (
          <Timeline.Item key={record.id} title={`Level ${record.level}: ${record.referrerId}`}>
            <Text size="sm" c="dimmed" component="div">
              code {record.referralCode} · reward <RecordReward record={record} /> · <StatusBadge status={record.status} />
            </Text>
          </Timeline.Item>
        ))}
      </Timeline>
      <Title order={3} size="h5">
        Purchases
      </Title>
      <Purchases conversionId={root.conversionId} />
      <Title order={3} size="h5">
        Reversals
      </Title>
      <Reversals conversionId={root.conversionId} purchases={bought} />
      <Text size="xs" c="dimmed">
        {root.conversionId} · campaign {root.Campaign?.id ?? '—'}
      </Text>
    </Stack>
  );
}
