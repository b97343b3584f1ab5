import { Tabs } from '@mantine/core';
import type { ReactNode } from 'react';
import { useSearchState } from '../url/search-state';

const KEYS = ['tab'] as const;

export interface UrlTab {
  value: string;
  label: string;
  panel: ReactNode;
}

/**
 * Tabs whose open one is in the URL (`?tab=`, the first tab without it); a
 * new tab starts its list at page 1. Only the open panel is mounted, so only
 * its data is read.
 */
export function UrlTabs({ tabs, label }: { tabs: UrlTab[]; label: string }) {
  const { values, set } = useSearchState(KEYS);
  const first = tabs[0]?.value ?? '';
  const open = tabs.some((t) => t.value === values.tab) ? values.tab! : first;
  return (
    <Tabs value={open} onChange={(v) => set({ tab: v === first ? null : v, page: null })} keepMounted={false}>
      <Tabs.List mb="md" aria-label={label}>
        {tabs.map((t) => (
          <Tabs.Tab key={t.value} value={t.value}>
            {t.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {tabs.map((t) => (
        <Tabs.Panel key={t.value} value={t.value}>
          {t.panel}
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}
