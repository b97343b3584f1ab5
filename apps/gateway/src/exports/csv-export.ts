import { stringify } from 'csv-stringify/sync';
import type { ZodObject } from 'zod';
import { z } from '../openapi/zod';

/** One column of an export: its header, and how a row's value is read. */
export interface CsvColumn<R> {
  header: string;
  value: (row: R) => Cell;
}

type Cell = string | number | boolean | null;

/**
 * The columns of a list's items as its JSON shows them: a field each, in
 * the JSON's order, a nested object's fields each a column of their own
 * named after both (Campaign.name → campaignName, balanceAfter.coins →
 * balanceAfterCoins). Read from the item's schema, so a field added to the
 * list is in its export too, and no cell holds JSON.
 */
export function jsonColumns<Z extends ZodObject>(item: Z): CsvColumn<z.output<Z>>[] {
  type Row = Record<string, unknown>;
  return Object.entries(item.shape).flatMap(([field, schema]) => {
    const nested = objectIn(schema);
    if (!nested) return [{ header: field, value: (row: Row) => cellOf(row[field]) }];
    return Object.keys(nested.shape).map((key) => ({
      header: `${field[0].toLowerCase()}${field.slice(1)}${key[0].toUpperCase()}${key.slice(1)}`,
      value: (row: Row) => cellOf((row[field] as Row | null)?.[key]),
    }));
  });
}

/** The object a field's schema holds, nullable or not; null for any other field. */
function objectIn(schema: unknown): ZodObject | null {
  const inner = schema instanceof z.ZodNullable || schema instanceof z.ZodOptional ? schema.unwrap() : schema;
  return inner instanceof z.ZodObject ? inner : null;
}

/** A JSON value as a cell: scalars as they are, absent as empty, a list (none is a column today) as its JSON. */
const cellOf = (value: unknown): Cell => (value === undefined || value === null ? null : typeof value === 'object' ? JSON.stringify(value) : (value as Cell));

/**
 * A list as CSV (RFC 4180, a header row, CRLF), produced batch by batch as
 * the rows arrive, so an export of any size holds one batch in memory. A
 * text cell that a spreadsheet would run as a formula (=, +, -, @, a tab
 * or a carriage return first) is written with a ' before it (OWASP's CSV
 * injection rule; csv-stringify's escape_formulas); numbers stay numbers,
 * negative ones included.
 */
export async function* csvLines<R>(columns: CsvColumn<R>[], batches: AsyncIterable<R[]>): AsyncIterable<string> {
  const options = { escape_formulas: true, record_delimiter: 'windows' as const, cast: { boolean: (b: boolean) => String(b) } };
  yield stringify([columns.map((c) => c.header)], options);
  for await (const rows of batches) {
    if (rows.length > 0) yield stringify(rows.map((row) => columns.map((c) => c.value(row) ?? '')), options);
  }
}

/** The file name a browser saves an export under: what it is and when (UTC), e.g. conversions-2026-11-28T1130Z.csv. */
export const exportFileName = (what: string, at = new Date()) => `${what}-${at.toISOString().slice(0, 16).replace(':', '')}Z.csv`;
