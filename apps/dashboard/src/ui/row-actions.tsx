import { Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { RoleGate } from '../session/session-context';
import { ConfirmButton } from './confirm-button';

export interface RemoveAction {
  /** The button's word: Delete, Withdraw. */
  verb: string;
  title: string;
  message: string;
  confirmLabel: string;
  loading: boolean;
  onConfirm: () => Promise<unknown>;
}

/**
 * A row's changes for a MANAGER or OWNER (none for a VIEWER): more of its
 * own (`children`), edit, and a removal confirmed in a dialog. `subject`
 * names the row for screen readers (`Edit Tote bag`, `Delete Tote bag`).
 */
export function RowActions({ subject, onEdit, remove, children }: { subject: string; onEdit?: () => void; remove?: RemoveAction; children?: ReactNode }) {
  return (
    <RoleGate least="MANAGER">
      <Group gap={4} wrap="nowrap">
        {children}
        {onEdit && (
          <Button size="compact-sm" variant="light" onClick={onEdit} aria-label={`Edit ${subject}`}>
            Edit
          </Button>
        )}
        {remove && (
          <ConfirmButton
            size="compact-sm"
            variant="subtle"
            color="red"
            title={remove.title}
            message={remove.message}
            confirmLabel={remove.confirmLabel}
            loading={remove.loading}
            onConfirm={remove.onConfirm}
            aria-label={`${remove.verb} ${subject}`}
          >
            {remove.verb}
          </ConfirmButton>
        )}
      </Group>
    </RoleGate>
  );
}
