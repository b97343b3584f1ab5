import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { theme } from './theme';

/** What every page needs around it: the theme, notifications and server state. `env="test"`: Mantine without transitions and portals (its way of being tested). */
export function Providers({ queryClient, env = 'default', children }: { queryClient: QueryClient; env?: 'default' | 'test'; children: ReactNode }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="auto" env={env}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      {/* After the pages: a notification's close button must not come before the skip link in the tab order. */}
      <Notifications position="top-right" />
    </MantineProvider>
  );
}
