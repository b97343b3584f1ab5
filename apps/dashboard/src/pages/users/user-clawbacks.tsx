import { Alert, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ok } from '../../api/api-error';
import type { Answer, Clawback } from '../../api/types';
import { useApi, useAppId } from '../../api/use-api';
import { DataTable } from '../../ui/data-table';
import { countOf, formatDate, formatDateTime, formatMoney, formatSums } from '../../ui/format';
import { PayoutLink } from '../../ui/payout-link';
import { RewardLink } from '../../ui/reward-link';
import { reasonText } from '../referrals/reversal-form';

const SHOWN = 10;

type Clawbacks = Answer<'/api/v1/rewards/clawbacks', 'get'>;

/** A user's clawbacks, newest first (the newest 10), and what they still owe (`totals`). */
export function useUserClawbacks(userId: string) {
  const api = useApi();
  const appId = useAppId();
  return useQuery({
    queryKey: ['app', appId, 'user', userId, 'clawbacks'],
    queryFn: () => ok(api.GET('/api/v1/rewards/clawbacks', { params: { query: { userId, limit: SHOWN } } })),
  });
}

/** Where a clawback stands: settled by a paid payout, deducted by a pending one, or still owed. */
function ClawbackState({ clawback: c }: { clawback: Clawback }) {
  if (c.settledAt) return <>settled {formatDate(c.settledAt)}</>;
  if (c.payoutId)
    return (
      <>
        deducted by <PayoutLink payoutId={c.payoutId} />
      </>
    );
  return <>owed</>;
}

function ClawbackTable({ clawbacks }: { clawbacks: Clawback[] }) {
  return (
    <DataTable
      label="Owed back"
      minWidth={440}
      rows={clawbacks}
      rowKey={(c) => c.id}
      columns={[
        { label: 'When', cell: (c) => formatDateTime(c.createdAt) },
        {
          label: 'Owed',
          cell: (c) => (
            <Stack gap={0}>
              <span>{formatMoney(c.amount, c.currency)}</span>
              <Text size="xs" c="dimmed">
                {reasonText(c.reason)}
              </Text>
            </Stack>
          ),
        },
        { label: 'Reward', cell: (c) => <RewardLink rewardId={c.rewardId} /> },
        { label: 'Settled', cell: (c) => <ClawbackState clawback={c} /> },
      ]}
    />
  );
}

/**
 * What a user owes back (GET /rewards/clawbacks?userId=): rewards paid to
 * them before a refund or chargeback of their sale, so no longer earned;
 * the next payout deducts it, and it is settled once that payout is paid.
 * An alert while anything is owed; the settled ones, quietly, otherwise.
 */
export function UserClawbacks({ userId, data }: { userId: string; data: Clawbacks }) {
  const more = data.pagination.totalItems > SHOWN ? ` The newest ${SHOWN}:` : '';
  if (data.totals.length === 0) {
    return (
      <Paper withBorder p="md" component="section" aria-labelledby="user-clawbacks" miw={0}>
        <Stack gap="xs">
          <Title order={2} size="h4" id="user-clawbacks">
            Clawbacks
          </Title>
          <Text size="sm" c="dimmed">
            Nothing owed back: {countOf(data.pagination.totalItems, 'clawbacks')} of {userId}, each deducted by a payout that was paid.{more}
          </Text>
          <ClawbackTable clawbacks={data.clawbacks} />
        </Stack>
      </Paper>
    );
  }
  return (
    // No narrower than its table otherwise (a grid's and a flex box's items keep their content's width): the table scrolls in its box instead.
    <section aria-labelledby="user-clawbacks" style={{ minWidth: 0 }}>
      <Alert color="orange" title={<span id="user-clawbacks">Owes back {formatSums(data.totals)}</span>} styles={{ body: { minWidth: 0 } }}>
        <Stack gap="xs">
          <Text size="sm">
            {countOf(data.pagination.totalItems, 'rewards')} paid to {userId} before a refund, chargeback or cancellation of their sale: what they no longer earn is owed
            back, and the next payout deducts it.{more}
          </Text>
          <ClawbackTable clawbacks={data.clawbacks} />
        </Stack>
      </Alert>
    </section>
  );
}
