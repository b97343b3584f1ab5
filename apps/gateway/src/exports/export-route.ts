import type { ZodObject } from 'zod';
import type { ApiRouter } from '../http/api-router';
import { z } from '../openapi/zod';
import { csvLines, exportFileName, type CsvColumn } from './csv-export';

/** How long an export's call to its service may run: a big list takes minutes, a browser waits for it. */
export const EXPORT_TIMEOUT_MS = 15 * 60_000;

/** The options of an export's call to its service (its stream). */
export const EXPORT_CALL = { timeoutMs: EXPORT_TIMEOUT_MS };

/** Each message of a service's export stream as a batch of rows (the list's JSON of its items). */
export async function* batchesOf<M, R>(messages: AsyncIterable<M>, rows: (message: M) => R[]): AsyncIterable<R[]> {
  for await (const message of messages) yield rows(message);
}

export interface ExportDefinition<Q extends ZodObject, R> {
  /** The list's path with /export after it, e.g. /conversions/export. */
  path: string;
  tag: string;
  /** What is exported, for the summary and the file name (e.g. conversions). */
  what: string;
  description: string;
  params?: ZodObject;
  /** The list's filters, without its page. */
  query: Q;
  columns: CsvColumn<R>[];
  /** The rows, a batch at a time, in the list's order. */
  rows: (input: { appId: string; query: z.output<Q>; params: Record<string, string> }) => AsyncIterable<R[]>;
}

/**
 * GET <list>/export: the list with its filters as a CSV file, streamed
 * (csvLines), with the same role as the list. One shape for every export,
 * so each states only its columns and where its rows come from.
 */
export function exportRoute<Q extends ZodObject, R>(api: ApiRouter, def: ExportDefinition<Q, R>): void {
  api.route({
    method: 'get',
    path: def.path,
    tag: def.tag,
    summary: `Export ${def.what} as CSV`,
    description:
      `${def.description} A header row, then one row per record in the list's order (RFC 4180, UTF-8, CRLF), streamed: any number of ` +
      "rows. A text cell that a spreadsheet would run as a formula (it starts with =, +, -, @, a tab or a carriage return) gets a ' " +
      'before it. Columns: ' +
      def.columns.map((c) => c.header).join(', ') +
      '.',
    params: def.params,
    query: def.query,
    responses: { 200: { description: `The ${def.what}, as a file to save`, contentType: 'text/csv', schema: z.string() } },
    handle: async ({ appId, query, params }) => ({
      status: 200,
      contentType: 'text/csv; charset=utf-8',
      stream: { chunks: csvLines(def.columns, def.rows({ appId, query, params: params as Record<string, string> })), fileName: exportFileName(def.what) },
    }),
  });
}
