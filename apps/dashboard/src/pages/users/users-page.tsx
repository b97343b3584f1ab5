import { Group, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ok } from '../../api/api-error';
import { useApi, useAppId } from '../../api/use-api';
import { PageHeader } from '../../ui/page-header';
import { Empty, QueryView, TableSkeleton } from '../../ui/query-state';
import { TextSearch } from '../../ui/text-search';
import { UrlTabs } from '../../ui/url-tabs';
import { useSearchState } from '../../url/search-state';
import { RedemptionsPanel } from '../incentives/catalog/redemptions-panel';
import { AdjustBalance } from './adjust-balance';
import { UserBadges, UserMilestones } from './user-achievements';
import { UserLedger } from './user-ledger';
import { UserMarketplaceCodes } from './user-marketplace-codes';
import { UserPayoutsAndClawbacks } from './user-payouts';
import { UserReferrals } from './user-referrals';
import { UserStreaks } from './user-streaks';
import { UserSummary } from './user-summary';

const KEYS = ['userId'] as const;

/** One end user in full: balances, level, ranks, and each side of their activity in a tab. */
function UserDetails({ userId, page }: { userId: string; page: number }) {
  const api = useApi();
  const appId = useAppId();
  const balance = useQuery({
    queryKey: ['app', appId, 'user', userId, 'balance'],
    // A user without activity has zero balances (200, not 404).
    queryFn: () => ok(api.GET('/api/v1/incentives/balances/{userId}', { params: { path: { userId } } })).then((d) => d.balance),
  });
  return (
    <Stack>
      <section aria-labelledby="user-balances">
        <Group justify="space-between" mb="xs">
          <Title order={2} size="h4" id="user-balances">
            Balances
          </Title>
          <AdjustBalance userId={userId} />
        </Group>
        <QueryView query={balance} skeleton={<TableSkeleton rows={2} label="Loading the user's balances" />}>
          {(b) => <UserSummary balance={b} />}
        </QueryView>
      </section>
      <UserPayoutsAndClawbacks userId={userId} />
      <UrlTabs
        label="The user's activity"
        tabs={[
          { value: 'ledger', label: 'Ledger', panel: <UserLedger userId={userId} page={page} /> },
          { value: 'badges', label: 'Badges', panel: <UserBadges userId={userId} page={page} /> },
          { value: 'milestones', label: 'Milestones', panel: <UserMilestones userId={userId} page={page} /> },
          { value: 'streaks', label: 'Streaks', panel: <UserStreaks userId={userId} /> },
          { value: 'catalog', label: 'Catalog redemptions', panel: <RedemptionsPanel forUser={userId} /> },
          { value: 'marketplace', label: 'Marketplace codes', panel: <UserMarketplaceCodes userId={userId} page={page} /> },
          { value: 'referrals', label: 'Referrals & rewards', panel: <UserReferrals userId={userId} page={page} /> },
        ]}
      />
    </Stack>
  );
}

export function UsersPage() {
  const { values, set, page } = useSearchState(KEYS);
  return (
    <>
      <PageHeader title="Users" description="One end user of the app in full: balances and ledger, level, badges, milestones, streaks and time zone, redemptions, ranks and referrals." />
      <Group mb="md">
        <TextSearch label="User id" formLabel="Look up a user" submitLabel="Look up" placeholder="The id your app gives the user" width={280} initial={values.userId} onSearch={(v) => set({ userId: v })} />
      </Group>
      {values.userId ? (
        <UserDetails key={values.userId} userId={values.userId} page={page} />
      ) : (
        <Empty title="Look up a user" description="Enter a user id to see their balances, ledger, level, badges, streaks, redemptions and referrals." />
      )}
    </>
  );
}
