import { Group, Pagination, Text } from '@mantine/core';
import type { Pagination as Page } from '../api/types';
import { countOf } from './format';
import { useSearchState } from '../url/search-state';

const NO_KEYS: readonly string[] = [];

/** Pages of a list, kept in the URL as `?page=`. */
export function UrlPagination({ pagination, label }: { pagination: Page | undefined; label: string }) {
  const { page, set } = useSearchState(NO_KEYS);
  if (!pagination || pagination.totalPages <= 1) {
    return pagination && pagination.totalItems > 0 ? (
      <Text size="sm" c="dimmed">
        {countOf(pagination.totalItems, label)}
      </Text>
    ) : null;
  }
  return (
    <Group justify="space-between" wrap="wrap" gap="xs">
      <Text size="sm" c="dimmed">
        {countOf(pagination.totalItems, label)}
      </Text>
      <Pagination
        total={pagination.totalPages}
        value={Math.min(page, pagination.totalPages)}
        onChange={(p) => set({ page: p === 1 ? null : p })}
        size="sm"
        aria-label={`Pages of ${label}`}
        getControlProps={(control) => ({ 'aria-label': `${control} page` })}
        getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
      />
    </Group>
  );
}
