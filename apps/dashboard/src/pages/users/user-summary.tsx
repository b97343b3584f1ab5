import { Anchor, Badge, Group, Paper, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { IncentiveBalance } from '../../api/types';
import { useAppId } from '../../api/use-api';
import { Figure } from '../../ui/figure';
import { formatNumber } from '../../ui/format';
import { PERIODS, useBoardPosition } from '../incentives/leaderboard/leaderboard-periods';
import { debtText, expiringText } from './balance-credits';
import { levelWords } from './level-words';
import { useUserStats } from './use-user-stats';

/** The user's level and how far they are to the next one (or that the app has no levels yet). */
function LevelProgress({ balance }: { balance: IncentiveBalance }) {
  const appId = useAppId();
  const words = levelWords(balance);
  return (
    <Paper withBorder p="sm" radius="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        Level
      </Text>
      <Text fw={700} aria-label="Level">
        {words.level}
      </Text>
      {words.percent !== null && <Progress value={words.percent} mt={6} aria-label="Progress to the next level" />}
      <Text size="xs" c="dimmed" mt={4}>
        {words.ahead}
        {words.percent === null && (
          <>
            {' · '}
            <Anchor component={Link} to={`/apps/${encodeURIComponent(appId)}/progression`} size="xs">
              Go to levels
            </Anchor>
          </>
        )}
      </Text>
    </Paper>
  );
}

/**
 * The user's referral side in one line, as GET /users/{userId}/stats counts
 * it (the Referrals tab shows the same read in full).
 */
function ReferralLine({ userId }: { userId: string }) {
  const stats = useUserStats(userId);
  if (stats.isError) return <>referral statistics unavailable</>;
  if (!stats.data) return <>referrals …</>;
  const s = stats.data;
  return (
    <>
      referral codes {formatNumber(s.referrals)} · clicks {formatNumber(s.clicks)} · conversions {formatNumber(s.conversions)}
    </>
  );
}

/** The user's rank on the board of one period ("—" when not on it). */
function Rank({ userId, period, label }: { userId: string; period: (typeof PERIODS)[number]['value']; label: string }) {
  const position = useBoardPosition(userId, period);
  const value = position.isPending ? '…' : position.isError ? 'unavailable' : position.data ? `#${formatNumber(position.data.rank)}` : '—';
  return <Figure label={`Rank ${label.toLowerCase()}`} value={value} />;
}

/** The next coins and tokens to expire (the app's expiry settings), soonest first. */
function ExpiringNext({ expiring }: { expiring: IncentiveBalance['expiring'] }) {
  return (
    <Paper withBorder p="sm" radius="md" component="section" aria-labelledby="user-expiring">
      <Text size="xs" c="dimmed" tt="uppercase" fw={700} id="user-expiring">
        Expiring next
      </Text>
      {expiring.length === 0 ? (
        <Text size="sm" c="dimmed">
          Nothing set to expire
        </Text>
      ) : (
        expiring.map((e) => (
          <Text key={`${e.currency}-${e.expiresAt}`} size="sm">
            {expiringText(e)}
          </Text>
        ))
      )}
    </Paper>
  );
}

/** Balances, level and progress, pending credits, next expiries and debt, perks and leaderboard ranks of one user. */
export function UserSummary({ balance }: { balance: IncentiveBalance }) {
  const debt = debtText(balance);
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        <Figure label="Coins" value={formatNumber(balance.coins)} />
        <Figure label="Tokens" value={formatNumber(balance.tokens)} />
        <Figure label="XP" value={formatNumber(balance.xp)} />
        <LevelProgress balance={balance} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        <Figure label="Pending coins" value={formatNumber(balance.pendingCoins)} help="Not spendable yet" />
        <Figure label="Pending tokens" value={formatNumber(balance.pendingTokens)} help="Not spendable yet" />
        <ExpiringNext expiring={balance.expiring} />
        {/* Only while an event reversal left something owed. */}
        {debt && <Figure label="Debt" value={debt} help="Taken back by an event reversal after it was spent: the next credits repay it" />}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        {PERIODS.map((p) => (
          <Rank key={p.value} userId={balance.userId} period={p.value} label={p.label} />
        ))}
      </SimpleGrid>
      <Group gap="xs">
        <Text size="sm" c="dimmed">
          <ReferralLine userId={balance.userId} /> · coins earned {formatNumber(balance.coinsEarned)} · rewarded events {formatNumber(balance.rewardedEvents)}
          {/* The engine's own count (the Referrals milestone metric): only conversions a referral action rewarded, so 0 without one. */}
          {' '}· referees rewarded by actions {formatNumber(balance.referrals)}
        </Text>
        {balance.perks.map((perk) => (
          <Badge key={perk} variant="light" color="grape">
            {perk}
          </Badge>
        ))}
      </Group>
    </Stack>
  );
}
