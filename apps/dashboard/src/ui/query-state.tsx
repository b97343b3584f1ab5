import { Alert, Button, EmptyState, Group, Skeleton, Stack } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ApiError, errorMessage } from '../api/api-error';

/** Rows of grey bars while a table loads. */
export function TableSkeleton({ rows = 5, label = 'Loading' }: { rows?: number; label?: string }) {
  return (
    <Stack gap="xs" aria-busy="true" aria-label={label}>
      <Skeleton height={28} />
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} height={22} />
      ))}
    </Stack>
  );
}

/** The API's error where the data would be, with a way to try again. */
export function QueryError({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const forbidden = error instanceof ApiError && error.status === 403;
  return (
    <Alert color={forbidden ? 'yellow' : 'red'} title={forbidden ? 'Not allowed' : 'Could not load'} role="alert">
      <Stack gap="xs">
        <span>{errorMessage(error)}</span>
        {onRetry && !forbidden && (
          <Group>
            <Button size="xs" variant="light" onClick={onRetry}>
              Try again
            </Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}

/** An empty list: what it would hold, and what to do about it. */
export function Empty({ title, description, children }: { title: string; description?: ReactNode; children?: ReactNode }) {
  return (
    <EmptyState title={title} description={description} py="xl">
      {children}
    </EmptyState>
  );
}

/**
 * A query's three states: a skeleton while it loads, the API's error, or its
 * data (or `empty` when `isEmpty` says there is nothing to show).
 */
export function QueryView<T>({
  query,
  skeleton = <TableSkeleton />,
  isEmpty,
  empty,
  children,
}: {
  query: UseQueryResult<T>;
  skeleton?: ReactNode;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <>{skeleton}</>;
  if (query.isError) return <QueryError error={query.error} onRetry={() => void query.refetch()} />;
  if (isEmpty?.(query.data) && empty) return <>{empty}</>;
  return <>{children(query.data)}</>;
}
