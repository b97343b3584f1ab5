import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import type { Decision } from './use-resolve-flags';

/** Confirms a decision on one or several flags, with the note that goes with it. */
export function ResolveDialog({
  decision,
  count,
  pending,
  onClose,
  onConfirm,
}: {
  decision: Decision | null;
  count: number;
  pending: boolean;
  onClose: () => void;
  onConfirm: (note: string) => void;
}) {
  const [note, setNote] = useState('');
  const verb = decision === 'APPROVE' ? 'Approve' : 'Reject';
  const flags = `${count} flag${count === 1 ? '' : 's'}`;
  return (
    <Modal opened={decision !== null} onClose={onClose} title={`${verb} ${flags}`} centered>
      <Stack>
        <Text size="sm">
          {decision === 'APPROVE'
            ? 'Approving releases the held rewards: the referral or conversion counts as genuine.'
            : 'Rejecting cancels the held rewards of the referral or conversion.'}
        </Text>
        <Textarea label="Note" description="Why you decided so; kept with the flag." autosize minRows={2} maxLength={1000} value={note} onChange={(e) => setNote(e.currentTarget.value)} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color={decision === 'APPROVE' ? 'green' : 'red'} loading={pending} onClick={() => onConfirm(note)}>
            {verb} {flags}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
