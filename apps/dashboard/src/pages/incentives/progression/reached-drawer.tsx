import { Drawer, Stack } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import type { Pagination } from '../../../api/types';
import { useAppId } from '../../../api/use-api';
import { DataTable, type Column } from '../../../ui/data-table';
import { Empty, QueryView } from '../../../ui/query-state';
import { UrlPagination } from '../../../ui/url-pagination';
import { pageOf, patchSearch } from '../../../url/search-state';

/**
 * Who reached something (a level, a badge, a milestone), opened from the URL
 * (`?holders=<key>`), a page at a time (`&holdersPage=`).
 */
export function ReachedDrawer<T>({
  subject,
  title,
  queryKey,
  load,
  columns,
  rowKey,
  noun,
}: {
  /** What was reached (`?holders=`), null when the drawer is closed. */
  subject: string | null;
  title: string;
  queryKey: readonly string[];
  load: (subject: string, page: number) => Promise<{ rows: T[]; pagination: Pagination }>;
  columns: Array<Column<T>>;
  rowKey: (row: T) => string;
  /** The people listed, plural (`holders`, `users`). */
  noun: string;
}) {
  const appId = useAppId();
  const [params, setParams] = useSearchParams();
  const page = pageOf(params, 'holdersPage');
  const reached = useQuery({
    queryKey: ['app', appId, ...queryKey, subject, page],
    queryFn: () => load(subject!, page),
    enabled: subject !== null,
    placeholderData: keepPreviousData,
  });
  return (
    <Drawer opened={subject !== null} onClose={() => setParams((current) => patchSearch(current, { holders: null, holdersPage: null }))} position="right" size="lg" title={title}>
      <QueryView query={reached} isEmpty={(d) => d.rows.length === 0} empty={<Empty title={`No ${noun} yet`} />}>
        {(d) => (
          <Stack>
            <DataTable label={title} rows={d.rows} rowKey={rowKey} minWidth={360} columns={columns} />
            <UrlPagination pagination={d.pagination} label={noun} param="holdersPage" />
          </Stack>
        )}
      </QueryView>
    </Drawer>
  );
}
