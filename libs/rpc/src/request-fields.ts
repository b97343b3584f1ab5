import { invalidArgument } from './rpc-error';

/** A string field the call cannot do without, trimmed; empty is InvalidArgument. */
export function requiredField(value: string, field: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw invalidArgument(`${field} is required`);
  return trimmed;
}

/** How the public API counts lengths (libs/contracts), for the edges' checks. */
export { characterCount } from '@ris/contracts';

const DEFAULT_PAGE_LIMIT = 25;
const MAX_PAGE_LIMIT = 100;

/** A list call's page, clamped: the gateway validates the bounds, services clamp defensively. */
export function pageFromRequest(page: { page: number; limit: number } | undefined): { page: number; limit: number } {
  return { page: Math.max(1, page?.page || 1), limit: Math.min(MAX_PAGE_LIMIT, Math.max(1, page?.limit || DEFAULT_PAGE_LIMIT)) };
}

/** A list reply's page (what pageFromRequest took, and how many items there are in all). */
export function pageReply(page: { page: number; limit: number; totalItems: number }): { page: number; limit: number; totalItems: number } {
  return { page: page.page, limit: page.limit, totalItems: page.totalItems };
}
