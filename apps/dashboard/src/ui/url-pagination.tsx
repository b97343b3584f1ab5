import { Group, Pagination, Text } from '@mantine/core';
import { useSearchParams } from 'react-router';
import type { Pagination as Page } from '../api/types';
import { countOf } from './format';
import { pageOf, patchSearch } from '../url/search-state';

/** Pages of a list, kept in the URL as `?page=` (or `param`, for a second list on the same view). */
export function UrlPagination({ pagination, label, param = 'page' }: { pagination: Page | undefined; label: string; param?: string }) {
  const [params, setParams] = useSearchParams();
  const page = pageOf(params, param);
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
        onChange={(p) => setParams((current) => patchSearch(current, { [param]: p === 1 ? null : p }))}
        size="sm"
        aria-label={`Pages of ${label}`}
        getControlProps={(control) => ({ 'aria-label': `${control} page` })}
        getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
      />
    </Group>
  );
}
