import { Badge, Button, Group, NumberInput, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ok } from '../../api/api-error';
import type { CreatePayouts as CreatePayoutsRequest, PayoutDue } from '../../api/types';
import { useApi, useAppId } from '../../api/use-api';
import { DataTable } from '../../ui/data-table';
import { ExportButton } from '../../ui/export-button';
import { countOf, formatDateTime, formatMoney } from '../../ui/format';
import { PageHeader } from '../../ui/page-header';
import { Empty, QueryView, TableSkeleton } from '../../ui/query-state';
import { StatusBadge } from '../../ui/status-badge';
import { TextSearch } from '../../ui/text-search';
import { UrlPagination } from '../../ui/url-pagination';
import { UserLink } from '../../ui/user-link';
import { useSearchState } from '../../url/search-state';
import { CURRENCIES, isKnownCurrency } from '../campaigns/currencies';
import { CreatePayouts } from './create-payouts';
import { PayoutDrawer } from './payout-drawer';
import { PAYOUT_STATUSES, dueNote, minimumOf, payoutMakeup, payoutNote } from './payout-words';

const KEYS = ['minimumAmount', 'currency', 'status', 'userId', 'payout'] as const;

type Values = ReturnType<typeof useSearchState<(typeof KEYS)[number]>>['values'];
type Setter = ReturnType<typeof useSearchState<(typeof KEYS)[number]>>['set'];

/** The least a referrer must be due, typed freely and put in the URL when applied. */
function MinimumFilter({ initial, onApply }: { initial: number | undefined; onApply: (value: number | null) => void }) {
  const [value, setValue] = useState<number | string>(initial ?? '');
  return (
    <form
      role="search"
      aria-label="Minimum amount due"
      onSubmit={(e) => {
        e.preventDefault();
        onApply(typeof value === 'number' ? value : null);
      }}
    >
      <Group align="flex-end" gap="xs">
        <NumberInput
          label="Minimum amount"
          description="Referrers due less are not paid yet"
          min={0}
          decimalScale={3}
          allowNegative={false}
          value={value}
          onChange={setValue}
          w={{ base: '100%', xs: 180 }}
        />
        <Button type="submit" variant="light">
          Apply
        </Button>
      </Group>
    </form>
  );
}

/** A referrer's due amount: what a payout would send (dimmed when nothing would be). */
function DueAmount({ due }: { due: PayoutDue }) {
  return (
    <Text size="sm" fw={600} c={due.amount <= 0 ? 'dimmed' : undefined}>
      {formatMoney(due.amount, due.currency)}
    </Text>
  );
}

/**
 * What is due now per referrer and currency (GET /payouts/due, largest
 * first) with the minimum and currency of the URL, and the action that
 * pays it (POST /payouts with the same fields).
 */
function DueNow({ values, set }: { values: Values; set: Setter }) {
  const api = useApi();
  const appId = useAppId();
  const minimumAmount = minimumOf(values.minimumAmount);
  // A code of the URL the app does not know is no filter (the API would refuse it).
  const currency = values.currency && isKnownCurrency(values.currency) ? (values.currency as CreatePayoutsRequest['currency']) : undefined;
  const request: CreatePayoutsRequest = { ...(minimumAmount !== undefined ? { minimumAmount } : {}), ...(currency ? { currency } : {}) };
  const due = useQuery({
    queryKey: ['app', appId, 'payouts', 'due', minimumAmount, currency],
    queryFn: () => ok(api.GET('/api/v1/payouts/due', { params: { query: request } })).then((d) => d.due),
    placeholderData: keepPreviousData,
  });
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="due-now">
      <Group justify="space-between" align="flex-start" mb="xs" wrap="wrap">
        <div>
          <Title order={2} size="h4" id="due-now">
            Due now
          </Title>
          <Text size="sm" c="dimmed">
            Per referrer and currency: their approved cash rewards in no payout, less what they owe back. Nothing is reserved until payouts are created.
          </Text>
        </div>
        <CreatePayouts request={request} due={due.data} />
      </Group>
      <Group mb="md" align="flex-end" wrap="wrap">
        <MinimumFilter key={values.minimumAmount ?? ''} initial={minimumAmount} onApply={(v) => set({ minimumAmount: v })} />
        <Select
          label="Currency"
          placeholder="Every currency"
          searchable
          clearable
          data={CURRENCIES}
          value={currency ?? null}
          onChange={(v) => set({ currency: v })}
          w={{ base: '100%', xs: 240 }}
        />
      </Group>
      <QueryView
        query={due}
        skeleton={<TableSkeleton rows={3} label="Loading what is due" />}
        isEmpty={(d) => d.length === 0}
        empty={<Empty title="Nothing is due" description="No referrer has approved cash rewards or clawbacks outside a payout." />}
      >
        {(list) => (
          <DataTable
            label="Due now"
            minWidth={620}
            rows={list}
            rowKey={(d) => `${d.userId}:${d.currency}`}
            rowProps={(d) => ({ 'data-testid': 'due-row', 'data-payable': String(d.payable) })}
            columns={[
              { label: 'Referrer', cell: (d) => <UserLink userId={d.userId} /> },
              { label: 'Due', cell: (d) => <DueAmount due={d} /> },
              { label: 'Rewards', cell: (d) => `${formatMoney(d.rewardsAmount, d.currency)} · ${countOf(d.rewardCount, 'rewards')}` },
              { label: 'Owed back', cell: (d) => (d.clawbackCount > 0 ? `${formatMoney(d.clawbacksAmount, d.currency)} · ${countOf(d.clawbackCount, 'clawbacks')}` : '—') },
              {
                label: 'Payable',
                cell: (d) => (
                  <Badge color={d.payable ? 'green' : 'gray'} variant="light">
                    {dueNote(d)}
                  </Badge>
                ),
              },
            ]}
          />
        )}
      </QueryView>
    </Paper>
  );
}

/** The payouts made, newest first, by status and referrer (GET /payouts); each opens in the drawer. */
function PayoutList({ values, set, page }: { values: Values; set: Setter; page: number }) {
  const api = useApi();
  const appId = useAppId();
  const status = PAYOUT_STATUSES.find((s) => s === values.status);
  const filters = { ...(status ? { status } : {}), ...(values.userId ? { userId: values.userId } : {}) };
  const payouts = useQuery({
    queryKey: ['app', appId, 'payouts', 'list', status, values.userId, page],
    queryFn: () => ok(api.GET('/api/v1/payouts', { params: { query: { ...filters, page, limit: 25 } } })),
    placeholderData: keepPreviousData,
  });
  return (
    <section aria-labelledby="payouts-made">
      <Group justify="space-between" align="flex-end" mb="xs" wrap="wrap">
        <Title order={2} size="h4" id="payouts-made">
          Payouts
        </Title>
        {/* The export takes the status (and a period), not a referrer. */}
        <ExportButton path="/api/v1/payouts/export" query={status ? { status } : {}} label="Export payouts" />
      </Group>
      <Group mb="md" align="flex-end" wrap="wrap">
        <Select
          label="Status"
          placeholder="Any status"
          clearable
          data={PAYOUT_STATUSES.map((s) => ({ value: s, label: s.toLowerCase() }))}
          value={status ?? null}
          onChange={(v) => set({ status: v })}
          w={{ base: '100%', xs: 170 }}
        />
        <TextSearch key={values.userId ?? ''} label="Referrer" formLabel="Payouts of a referrer" placeholder="User id" initial={values.userId} onSearch={(v) => set({ userId: v })} />
      </Group>
      <QueryView
        query={payouts}
        skeleton={<TableSkeleton rows={5} label="Loading payouts" />}
        isEmpty={(d) => d.payouts.length === 0}
        empty={<Empty title="No payouts" description={status || values.userId ? 'No payout matches these filters.' : 'Payouts you create from what is due show here.'} />}
      >
        {(d) => (
          <Stack>
            <DataTable
              label="Payouts"
              minWidth={760}
              rows={d.payouts}
              rowKey={(p) => p.id}
              rowProps={() => ({ 'data-testid': 'payout-row' })}
              columns={[
                {
                  label: 'Payout',
                  hiddenLabel: true,
                  cell: (p) => (
                    <Button size="compact-sm" variant="light" onClick={() => set({ payout: p.id })} aria-label={`Open payout ${p.id}`}>
                      Open
                    </Button>
                  ),
                },
                { label: 'Referrer', cell: (p) => <UserLink userId={p.userId} /> },
                {
                  label: 'Amount',
                  cell: (p) => (
                    <Stack gap={2}>
                      <Text size="sm" fw={600}>
                        {formatMoney(p.amount, p.currency)}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {payoutMakeup(p)}
                      </Text>
                    </Stack>
                  ),
                },
                {
                  label: 'Status',
                  cell: (p) => (
                    <Stack gap={2} align="flex-start">
                      <StatusBadge status={p.status} />
                      {payoutNote(p) && (
                        <Text size="xs" c="dimmed">
                          {payoutNote(p)}
                        </Text>
                      )}
                    </Stack>
                  ),
                },
                { label: 'Created', cell: (p) => formatDateTime(p.createdAt) },
                { label: 'Paid or failed', cell: (p) => formatDateTime(p.paidAt ?? p.failedAt) },
              ]}
            />
            <UrlPagination pagination={d.pagination} label="payouts" />
          </Stack>
        )}
      </QueryView>
    </section>
  );
}

/**
 * Cash commissions paid to referrers: what each is due before creating
 * payouts, creating them, and each payout through to paid or failed
 * (OWNER and MANAGER change, every change audited; a VIEWER reads).
 */
export function PayoutsPage() {
  const { values, set, page } = useSearchState(KEYS);
  return (
    <>
      <PageHeader title="Payouts" description="Cash rewards paid to referrers: what each is due, the payouts made, and each transfer marked paid or failed." />
      <Stack gap="xl">
        <DueNow values={values} set={set} />
        <PayoutList values={values} set={set} page={page} />
      </Stack>
      <PayoutDrawer payoutId={values.payout} onClose={() => set({ payout: null })} />
    </>
  );
}
