import { Badge, Group, Paper, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import type { IncentiveBalance } from '../../api/types';
import { Figure } from '../../ui/figure';
import { formatNumber } from '../../ui/format';
import { PERIODS, useBoardPosition } from '../incentives/leaderboard/leaderboard-periods';

/** The user's level and how far they are to the next one. */
function LevelProgress({ balance }: { balance: IncentiveBalance }) {
  const percent = Math.round(balance.progress * 100);
  return (
    <Paper withBorder p="sm" radius="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        Level
      </Text>
      <Text fw={700} aria-label="Level">
        {balance.level}
        {balance.levelName ? ` · ${balance.levelName}` : ''}
      </Text>
      <Progress value={percent} mt={6} aria-label="Progress to the next level" />
      <Text size="xs" c="dimmed" mt={4}>
        {balance.nextLevel
          ? `${formatNumber(balance.nextLevel.xpRemaining)} XP to level ${balance.nextLevel.level} · ${balance.nextLevel.name} (${percent} %)`
          : 'The highest level'}
      </Text>
    </Paper>
  );
}

/** The user's rank on the board of one period ("—" when not on it). */
function Rank({ userId, period, label }: { userId: string; period: (typeof PERIODS)[number]['value']; label: string }) {
  const position = useBoardPosition(userId, period);
  const value = position.isPending ? '…' : position.isError ? 'unavailable' : position.data ? `#${formatNumber(position.data.rank)}` : '—';
  return <Figure label={`Rank ${label.toLowerCase()}`} value={value} />;
}

/** Balances, level and progress, perks and leaderboard ranks of one user. */
export function UserSummary({ balance }: { balance: IncentiveBalance }) {
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        <Figure label="Coins" value={formatNumber(balance.coins)} />
        <Figure label="Tokens" value={formatNumber(balance.tokens)} />
        <Figure label="XP" value={formatNumber(balance.xp)} />
        <LevelProgress balance={balance} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        {PERIODS.map((p) => (
          <Rank key={p.value} userId={balance.userId} period={p.value} label={p.label} />
        ))}
      </SimpleGrid>
      <Group gap="xs">
        <Text size="sm" c="dimmed">
          Coins earned {formatNumber(balance.coinsEarned)} · rewarded events {formatNumber(balance.rewardedEvents)} · referrals {formatNumber(balance.referrals)}
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
