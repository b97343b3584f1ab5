import { Table, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';

export interface Column<T> {
  /** The column's header; `hiddenLabel` headers are read by screen readers only (a column of buttons). */
  label: string;
  hiddenLabel?: boolean;
  cell: (row: T) => ReactNode;
}

/**
 * A list as a table that scrolls in its own box when the screen is narrower
 * than `minWidth` (the page itself never scrolls sideways).
 */
export function DataTable<T>({
  rows,
  columns,
  rowKey,
  minWidth = 640,
  label,
  rowProps,
}: {
  rows: readonly T[];
  columns: ReadonlyArray<Column<T> | false | null | undefined>;
  rowKey: (row: T) => string;
  minWidth?: number;
  /** The table's accessible name. */
  label?: string;
  rowProps?: (row: T) => Record<string, string | undefined>;
}) {
  const shown = columns.filter((c): c is Column<T> => Boolean(c));
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table striped highlightOnHover aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {shown.map((c) => (
              <Table.Th key={c.label}>{c.hiddenLabel ? <VisuallyHidden>{c.label}</VisuallyHidden> : c.label}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)} {...rowProps?.(row)}>
              {shown.map((c) => (
                <Table.Td key={c.label}>{c.cell(row)}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
