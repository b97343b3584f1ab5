import { Paper, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** One number of a page's summary, named for screen readers by its label. */
export function Figure({ label, value, size = 'md', children }: { label: string; value: string; size?: 'md' | 'xl'; children?: ReactNode }) {
  return (
    <Paper withBorder p={size === 'xl' ? 'md' : 'sm'} radius="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text size={size === 'xl' ? 'xl' : undefined} fw={700} aria-label={label}>
        {value}
      </Text>
      {children}
    </Paper>
  );
}
