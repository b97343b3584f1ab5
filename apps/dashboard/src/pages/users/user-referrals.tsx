import { SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ok } from '../../api/api-error';
import { useApi, useAppId } from '../../api/use-api';
import { Figure } from '../../ui/figure';
import { formatDateTime, formatNumber, formatValue } from '../../ui/format';
import { QueryView, TableSkeleton } from '../../ui/query-state';
import { UrlPagination } from '../../ui/url-pagination';
import { useCampaignCurrencies } from '../campaigns/use-campaigns';
import { RewardAmount, RewardState } from '../rewards/reward-state';
import { useUserStats } from './use-user-stats';

/** The referral side of one user: their codes' statistics (by level) and their rewards. */
export function UserReferrals({ userId, page }: { userId: string; page: number }) {
  const api = useApi();
  const appId = useAppId();
  const path = { userId };
  const stats = useUserStats(userId);
  // The user's figures sum every campaign: in the app's one currency, else plain numbers.
  const currency = useCampaignCurrencies().of(null);
  const money = (value: number) => formatValue(value, currency);
  const rewards = useQuery({
    queryKey: ['app', appId, 'user', userId, 'rewards', page],
    queryFn: () => ok(api.GET('/api/v1/users/{userId}/rewards', { params: { path, query: { page, limit: 10 } } })),
    placeholderData: keepPreviousData,
  });
  return (
    <Stack>
      <section aria-labelledby="user-referrals">
        <Title order={2} size="h4" id="user-referrals" mb="xs">
          Referrals
        </Title>
        <QueryView query={stats} skeleton={<TableSkeleton rows={2} label="Loading the user's statistics" />}>
          {(s) => (
            <Stack>
              <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }}>
                <Figure label="Referral codes" value={formatNumber(s.referrals)} />
                <Figure label="Clicks" value={formatNumber(s.clicks)} />
                <Figure label="Conversions" value={formatNumber(s.conversions)} />
                <Figure label="Earned" value={money(s.rewardsEarned)} />
                <Figure label="Pending" value={money(s.rewardsPending)} />
                <Figure label="As referee" value={`${money(s.refereeRewards.earned)} + ${money(s.refereeRewards.pending)} pending`} />
              </SimpleGrid>
              {s.byLevel.length > 0 && (
                <Table.ScrollContainer minWidth={420}>
                  <Table>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>Level</Table.Th>
                        <Table.Th>Conversions</Table.Th>
                        <Table.Th>Earned</Table.Th>
                        <Table.Th>Pending</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {s.byLevel.map((l) => (
                        <Table.Tr key={l.level}>
                          <Table.Td>{l.level}</Table.Td>
                          <Table.Td>{l.conversions}</Table.Td>
                          <Table.Td>{money(l.rewardsEarned)}</Table.Td>
                          <Table.Td>{money(l.rewardsPending)}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              )}
            </Stack>
          )}
        </QueryView>
      </section>
      <section aria-labelledby="user-rewards">
        <Title order={2} size="h4" id="user-rewards" mb="xs">
          Rewards
        </Title>
        <QueryView query={rewards} isEmpty={(d) => d.rewards.length === 0} empty={<Text size="sm" c="dimmed">No rewards yet.</Text>}>
          {(d) => (
            <Stack>
              <Table.ScrollContainer minWidth={560}>
                <Table striped>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Amount</Table.Th>
                      <Table.Th>Status</Table.Th>
                      <Table.Th>Side · level</Table.Th>
                      <Table.Th>Code</Table.Th>
                      <Table.Th>Created</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {d.rewards.map((r) => (
                      <Table.Tr key={r.id}>
                        <Table.Td>
                          <RewardAmount reward={r} />
                        </Table.Td>
                        <Table.Td>
                          <RewardState reward={r} />
                        </Table.Td>
                        <Table.Td>
                          {r.side.toLowerCase()} · {r.level}
                        </Table.Td>
                        <Table.Td>{r.discountCode ?? '—'}</Table.Td>
                        <Table.Td>{formatDateTime(r.createdAt)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
              <UrlPagination pagination={d.pagination} label="rewards" />
            </Stack>
          )}
        </QueryView>
      </section>
    </Stack>
  );
}
