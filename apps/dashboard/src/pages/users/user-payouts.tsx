import { Anchor, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ok } from '../../api/api-error';
import type { Payout, PayoutDue } from '../../api/types';
import { useApi, useAppId } from '../../api/use-api';
import { DataTable } from '../../ui/data-table';
import { countOf, formatDateTime, formatMoney } from '../../ui/format';
import { PayoutLink } from '../../ui/payout-link';
import { StatusBadge } from '../../ui/status-badge';
import { dueNote, payoutNote } from '../payouts/payout-words';
import { UserClawbacks, useUserClawbacks } from './user-clawbacks';

const SHOWN = 10;

/** A referrer's payouts, newest first (the newest 10), and what they are due now outside any payout. */
function useUserPayouts(userId: string) {
  const api = useApi();
  const appId = useAppId();
  const payouts = useQuery({
    queryKey: ['app', appId, 'user', userId, 'payouts'],
    queryFn: () => ok(api.GET('/api/v1/payouts', { params: { query: { userId, limit: SHOWN } } })),
  });
  const due = useQuery({
    queryKey: ['app', appId, 'user', userId, 'payouts-due'],
    queryFn: () => ok(api.GET('/api/v1/payouts/due', { params: { query: { userId } } })).then((d) => d.due),
  });
  return { payouts, due };
}

/** What the referrer is due now, per currency: `$35.05 due now (2 rewards): payable`. */
function DueLine({ due }: { due: PayoutDue }) {
  return (
    <Text size="sm">
      <strong>{formatMoney(due.amount, due.currency)}</strong> due now ({countOf(due.rewardCount, 'rewards')}
      {due.clawbackCount > 0 ? `, less ${formatMoney(due.clawbacksAmount, due.currency)} owed back` : ''}): {dueNote(due)}
    </Text>
  );
}

/** The referrer's payouts (GET /payouts?userId=), each opening on the Payouts page, and what they are due now. */
function UserPayouts({ userId, payouts, total, due }: { userId: string; payouts: Payout[]; total: number; due: PayoutDue[] }) {
  const appId = useAppId();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="user-payouts" miw={0}>
      <Stack gap="xs">
        <Group justify="space-between" align="baseline">
          <Title order={2} size="h4" id="user-payouts">
            Payouts
          </Title>
          <Anchor component={Link} to={`/apps/${encodeURIComponent(appId)}/payouts?userId=${encodeURIComponent(userId)}`} size="sm">
            {total > SHOWN ? `All ${total} on the Payouts page` : 'On the Payouts page'}
          </Anchor>
        </Group>
        {due.map((d) => (
          <DueLine key={d.currency} due={d} />
        ))}
        {payouts.length === 0 ? (
          <Text size="sm" c="dimmed">
            No payout yet.
          </Text>
        ) : (
          <DataTable
            label="Payouts of the user"
            minWidth={380}
            rows={payouts}
            rowKey={(p) => p.id}
            columns={[
              { label: 'Created', cell: (p) => formatDateTime(p.createdAt) },
              { label: 'Amount', cell: (p) => formatMoney(p.amount, p.currency) },
              {
                label: 'Status',
                cell: (p) => (
                  <Group gap={6} wrap="nowrap">
                    <StatusBadge status={p.status} />
                    {payoutNote(p) && (
                      <Text size="xs" c="dimmed">
                        {payoutNote(p)}
                      </Text>
                    )}
                  </Group>
                ),
              },
              { label: 'Payout', cell: (p) => <PayoutLink payoutId={p.id} label={`Payout ${p.id}`}>Open</PayoutLink> },
            ]}
          />
        )}
      </Stack>
    </Paper>
  );
}

/**
 * A referrer's cash side under their balances: their payouts (with what
 * they are due now) beside what they owe back. Each shows only when it has
 * something (an incentive user who never earned cash sees neither), and
 * neither read failing hides the page: they are notes on the user.
 */
export function UserPayoutsAndClawbacks({ userId }: { userId: string }) {
  const { payouts, due } = useUserPayouts(userId);
  const clawbacks = useUserClawbacks(userId);
  const owed = (due.data ?? []).filter((d) => d.rewardCount > 0 || d.clawbackCount > 0);
  const panels: ReactNode[] = [];
  if (payouts.data && (payouts.data.pagination.totalItems > 0 || owed.length > 0)) {
    panels.push(<UserPayouts key="payouts" userId={userId} payouts={payouts.data.payouts} total={payouts.data.pagination.totalItems} due={owed} />);
  }
  if (clawbacks.data && clawbacks.data.pagination.totalItems > 0) panels.push(<UserClawbacks key="clawbacks" userId={userId} data={clawbacks.data} />);
  if (panels.length === 0) return null;
  return <SimpleGrid cols={{ base: 1, lg: panels.length }}>{panels}</SimpleGrid>;
}
