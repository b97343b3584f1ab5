import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ok } from '../../api/api-error';
import { useApi, useAppId } from '../../api/use-api';
import { DataTable } from '../../ui/data-table';
import { countOf, formatDateTime, formatMoney } from '../../ui/format';
import { reasonText } from '../referrals/reversal-form';

const SHOWN = 10;

/**
 * What a user owes back (GET /rewards/clawbacks?userId=): rewards paid to
 * them before a refund or chargeback of their sale, so no longer earned.
 * Nothing at all when they owe nothing (or the read failed: it is a note
 * on the user, not the page's subject).
 */
export function UserClawbacks({ userId }: { userId: string }) {
  const api = useApi();
  const appId = useAppId();
  const clawbacks = useQuery({
    queryKey: ['app', appId, 'user', userId, 'clawbacks'],
    queryFn: () => ok(api.GET('/api/v1/rewards/clawbacks', { params: { query: { userId, limit: SHOWN } } })),
  });
  const d = clawbacks.data;
  if (!d || d.pagination.totalItems === 0) return null;
  const owed = d.totals.map((t) => formatMoney(t.amount, t.currency)).join(' + ');
  return (
    <section aria-labelledby="user-clawbacks">
      <Alert color="orange" title={<span id="user-clawbacks">Owes back {owed}</span>}>
        <Stack gap="xs">
          <Text size="sm">
            {countOf(d.pagination.totalItems, 'rewards')} paid to {userId} before a refund, chargeback or cancellation of their sale: what they no longer earn is owed
            back, and the next payout deducts it.
            {d.pagination.totalItems > SHOWN ? ` The newest ${SHOWN}:` : ''}
          </Text>
          <DataTable
            label="Owed back"
            minWidth={520}
            rows={d.clawbacks}
            rowKey={(c) => c.id}
            columns={[
              { label: 'When', cell: (c) => formatDateTime(c.createdAt) },
              { label: 'Owed', cell: (c) => formatMoney(c.amount, c.currency) },
              { label: 'Why', cell: (c) => reasonText(c.reason) },
              {
                label: 'Reward',
                cell: (c) => (
                  <Anchor component={Link} to={`/apps/${encodeURIComponent(appId)}/rewards?reward=${encodeURIComponent(c.rewardId)}`} size="sm">
                    {c.rewardId}
                  </Anchor>
                ),
              },
            ]}
          />
        </Stack>
      </Alert>
    </section>
  );
}
