import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { ACTION_WORDS, type RewardAction } from './use-reward-actions';

const EXPLAINED: Record<RewardAction, string> = {
  APPROVE:
    "Approving a reward held by its conversion's fraud flag approves that flag: every held reward of the conversion is released with it.",
  FULFIL: 'Marking a reward fulfilled records that its user got it (APPROVED → PAID); a claimed code stops validating.',
  CANCEL: "Cancelling takes the reward back: its code stops validating, and it leaves the campaign's reward value and the user's earnings.",
};

/** Confirms an action on one or several rewards, with the note that goes with it (a cancellation needs one). */
export function RewardActionDialog({
  action,
  count,
  pending,
  onClose,
  onConfirm,
}: {
  action: RewardAction | null;
  count: number;
  pending: boolean;
  onClose: () => void;
  onConfirm: (note: string) => void;
}) {
  const [note, setNote] = useState('');
  const words = action ? ACTION_WORDS[action] : null;
  const rewards = `${count} reward${count === 1 ? '' : 's'}`;
  const needsNote = action === 'CANCEL';
  return (
    <Modal opened={action !== null} onClose={onClose} title={words ? `${words.verb} ${rewards}` : ''} centered>
      {action && words && (
        <Stack>
          <Text size="sm">{EXPLAINED[action]}</Text>
          {action !== 'FULFIL' && (
            <Textarea
              label="Note"
              description="Why you decided so; kept with the decision."
              required={needsNote}
              autosize
              minRows={2}
              maxLength={2000}
              value={note}
              onChange={(e) => setNote(e.currentTarget.value)}
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Back
            </Button>
            <Button color={action === 'CANCEL' ? 'red' : 'green'} loading={pending} disabled={needsNote && !note.trim()} onClick={() => onConfirm(note)}>
              {words.verb} {rewards}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
