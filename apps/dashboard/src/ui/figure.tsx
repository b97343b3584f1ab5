import { Paper, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * One number of a page's summary, named for screen readers by its label;
 * `help` says what it counts, under it (FIGURE_HELP for the referral figures).
 */
export function Figure({ label, value, size = 'md', help, children }: { label: string; value: string; size?: 'md' | 'xl'; help?: string; children?: ReactNode }) {
  return (
    <Paper withBorder p={size === 'xl' ? 'md' : 'sm'} radius="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text size={size === 'xl' ? 'xl' : undefined} fw={700} aria-label={label}>
        {value}
      </Text>
      {help && (
        <Text size="xs" c="dimmed">
          {help}
        </Text>
      )}
      {children}
    </Paper>
  );
}
