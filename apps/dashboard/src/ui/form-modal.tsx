import { Button, Group, Modal, Stack } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { ReactNode } from 'react';

/** A dialog holding one form: its fields, and the button that sends it. */
export function FormModal<V>({
  opened,
  onClose,
  title,
  form,
  onSubmit,
  submitLabel,
  submitting,
  size = 'lg',
  children,
}: {
  opened: boolean;
  onClose: () => void;
  title: string;
  form: UseFormReturnType<V>;
  onSubmit: (values: V) => void;
  submitLabel: string;
  submitting: boolean;
  size?: string;
  children: ReactNode;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered size={size}>
      <form onSubmit={form.onSubmit(onSubmit)} noValidate aria-label={title}>
        <Stack>
          {children}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={submitting}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
