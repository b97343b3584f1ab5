import { Button, Drawer, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ok } from '../../api/api-error';
import type { Payout } from '../../api/types';
import { useApi, useAppId } from '../../api/use-api';
import { RoleGate } from '../../session/session-context';
import { DataTable } from '../../ui/data-table';
import { Field } from '../../ui/field';
import { countOf, formatDateTime, formatMoney } from '../../ui/format';
import { QueryView, TableSkeleton } from '../../ui/query-state';
import { StatusBadge } from '../../ui/status-badge';
import { RewardLink } from '../../ui/reward-link';
import { UserLink } from '../../ui/user-link';
import { reasonText } from '../referrals/reversal-form';
import { PayoutTransitionDialog, type PayoutEnd } from './payout-transition';

/** Mark paid (with the transfer's reference) and mark failed (with why), for a MANAGER or OWNER while the payout is PENDING. */
function PayoutEnds({ payout }: { payout: Payout }) {
  const [end, setEnd] = useState<PayoutEnd | null>(null);
  if (payout.status !== 'PENDING') return null;
  return (
    <RoleGate least="MANAGER">
      <Group gap="xs">
        <Button color="teal" onClick={() => setEnd('PAID')}>
          Mark paid
        </Button>
        <Button color="red" variant="light" onClick={() => setEnd('FAILED')}>
          Mark failed
        </Button>
      </Group>
      <PayoutTransitionDialog key={end ?? 'none'} end={end} payout={payout} onClose={() => setEnd(null)} />
    </RoleGate>
  );
}

/**
 * One payout (`?payout=`): what it sends and to whom, where it stands, the
 * CASH rewards it pays and the clawbacks it deducts (GET /payouts/{payoutId});
 * a PENDING one is marked paid or failed from here.
 */
export function PayoutDrawer({ payoutId, onClose }: { payoutId: string | null; onClose: () => void }) {
  const api = useApi();
  const appId = useAppId();
  const detail = useQuery({
    queryKey: ['app', appId, 'payout', payoutId],
    queryFn: () => ok(api.GET('/api/v1/payouts/{payoutId}', { params: { path: { payoutId: payoutId! } } })),
    enabled: payoutId !== null,
  });
  return (
    <Drawer opened={payoutId !== null} onClose={onClose} position="right" size="lg" title="Payout">
      <QueryView query={detail} skeleton={<TableSkeleton rows={6} label="Loading the payout" />}>
        {({ payout: p, rewards, clawbacks }) => {
          const money = (value: number) => formatMoney(value, p.currency);
          return (
            <Stack>
              <SimpleGrid cols={2}>
                <Field label="Amount">
                  <Text fw={700} size="lg" component="span">
                    {money(p.amount)}
                  </Text>
                </Field>
                <Field label="Status">
                  <StatusBadge status={p.status} />
                </Field>
                <Field label="Referrer">
                  <UserLink userId={p.userId} />
                </Field>
                <Field label="Created">{formatDateTime(p.createdAt)}</Field>
                <Field label="Rewards">
                  {money(p.rewardsAmount)} · {countOf(p.rewardCount, 'rewards')}
                </Field>
                <Field label="Owed back, deducted">
                  {p.clawbackCount > 0 ? `${money(p.clawbacksAmount)} · ${countOf(p.clawbackCount, 'clawbacks')}` : 'nothing'}
                </Field>
                {p.status === 'PAID' && (
                  <>
                    <Field label="Paid">{formatDateTime(p.paidAt)}</Field>
                    <Field label="Transfer reference">{p.externalReference ?? '—'}</Field>
                  </>
                )}
                {p.status === 'FAILED' && (
                  <>
                    <Field label="Failed">{formatDateTime(p.failedAt)}</Field>
                    <Field label="Why">{p.failureReason ?? '—'}</Field>
                  </>
                )}
              </SimpleGrid>
              <PayoutEnds payout={p} />
              <Title order={3} size="h5">
                Rewards it pays
              </Title>
              <DataTable
                label="Rewards it pays"
                minWidth={440}
                rows={rewards}
                rowKey={(r) => r.id}
                columns={[
                  {
                    label: 'Reward',
                    cell: (r) => (
                      <Stack gap={0}>
                        <RewardLink rewardId={r.id} />
                        <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
                          of {r.purchaseId ? `purchase ${r.purchaseId}` : `conversion ${r.conversionId}`}
                        </Text>
                      </Stack>
                    ),
                  },
                  { label: 'Amount', cell: (r) => money(r.amount) },
                  { label: 'Earned', cell: (r) => formatDateTime(r.createdAt) },
                ]}
              />
              <Title order={3} size="h5">
                Clawbacks it deducts
              </Title>
              {clawbacks.length === 0 ? (
                <Text size="sm" c="dimmed">
                  None: it deducts nothing owed back.
                </Text>
              ) : (
                <DataTable
                  label="Clawbacks it deducts"
                  minWidth={440}
                  rows={clawbacks}
                  rowKey={(c) => c.id}
                  columns={[
                    { label: 'Owed back', cell: (c) => money(c.amount) },
                    { label: 'Why', cell: (c) => reasonText(c.reason) },
                    { label: 'Of reward', cell: (c) => <RewardLink rewardId={c.rewardId} /> },
                    { label: 'When', cell: (c) => formatDateTime(c.createdAt) },
                  ]}
                />
              )}
              <Text size="xs" c="dimmed">
                {p.id}
              </Text>
            </Stack>
          );
        }}
      </QueryView>
    </Drawer>
  );
}
