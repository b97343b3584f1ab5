import { Stack, Text } from '@mantine/core';
import { formatMoney } from '../../ui/format';
import { StatusBadge } from '../../ui/status-badge';
import { reversalOf, rewardNotes, type RewardView } from './reward-terms';

/** A reward's amount in its currency; struck through once a reversal took it back whole. */
export function RewardAmount({ reward }: { reward: RewardView }) {
  const money = formatMoney(reward.amount, reward.currency);
  if (!reversalOf(reward)?.full) return <>{money}</>;
  return (
    <Text size="sm" c="dimmed" td="line-through" component="span" aria-label={`${money}, reversed`}>
      {money}
    </Text>
  );
}

/** A reward's status, and under it what the status alone does not say: held until when, reversed or reduced by how much. */
export function RewardState({ reward }: { reward: RewardView }) {
  const notes = rewardNotes(reward);
  if (notes.length === 0) return <StatusBadge status={reward.status} />;
  return (
    <Stack gap={2} align="flex-start">
      <StatusBadge status={reward.status} />
      {notes.map((note) => (
        <Text key={note} size="xs" c="dimmed">
          {note}
        </Text>
      ))}
    </Stack>
  );
}
