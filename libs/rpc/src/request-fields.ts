import { invalidArgument } from './rpc-error';

/** A string field the call cannot do without, trimmed; empty is InvalidArgument. */
export function requiredField(value: string, field: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw invalidArgument(`${field} is required`);
  return trimmed;
}

/**
 * Characters (Unicode code points) in a string: how the public API counts
 * lengths (JSON Schema's maxLength), so a limit here agrees with the
 * gateway's for text outside the Basic Multilingual Plane too.
 */
export function characterCount(value: string): number {
  let count = 0;
  for (const _ of value) count += 1;
  return count;
}

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
