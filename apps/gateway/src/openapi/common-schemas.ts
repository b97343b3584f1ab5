import { intFromQuery } from './query-values';
import { identifier, lineText } from './text-fields';
import { z } from './zod';

/** Shared pieces of the public contract. */
export const ErrorResponse = z
  .object({
    error: z.object({
      code: z.string().openapi({ example: 'VALIDATION_ERROR' }),
      message: z.string(),
      details: z.record(z.string(), z.unknown()).optional(),
      requestId: z.string(),
    }),
  })
  .openapi('ErrorResponse');

export const Pagination = z
  .object({
    page: z.number().int(),
    limit: z.number().int(),
    totalItems: z.number().int(),
    totalPages: z.number().int(),
  })
  .openapi('Pagination');

/** page (>= 1, default 1) and limit (1..100, default 25) on every list. */
export const pageQuery = {
  page: intFromQuery('page', 1, 1_000_000, 1),
  limit: intFromQuery('limit', 1, 100, 25),
};

interface PageParams {
  page: number;
  limit: number;
}

/** The page a list call asks its service for. */
export const pageRequest = (query: PageParams): PageParams => ({ page: query.page, limit: query.limit });

/** A list answer's `pagination`: the page asked for, and the total the service counted. */
export function pagination(query: PageParams, counted: { totalItems: number } | undefined) {
  const totalItems = counted?.totalItems ?? 0;
  return { page: query.page, limit: query.limit, totalItems, totalPages: Math.ceil(totalItems / query.limit) };
}

/**
 * A required identifier (an id the service made, a code, a user id of
 * yours): 1 to 128 characters, no control characters, no white space at
 * either end (text-fields.ts). Generated ids are about 24 characters.
 */
export const id = (description: string) => identifier(description);

export const timestamp = z.string().openapi({ format: 'date-time', example: '2026-11-21T07:54:00.000Z' });

// RFC 3339 date-time with a real calendar date (leap years included) and a
// Z or ±hh:mm offset; written with [0-9] so every regex engine reads it alike.
const DATE = '(?:(?:[0-9]{2}[2468][048]|[0-9]{2}[13579][26]|[0-9]{2}0[48]|[02468][048]00|[13579][26]00)-02-29|[0-9]{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8])))';
const TIME = '(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]{1,9})?(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])';
export const DATE_TIME_PATTERN = `^${DATE}T${TIME}$`;

/** An ISO 8601 / RFC 3339 date-time sent by the caller, e.g. 2026-11-21T07:54:00Z. */
export const dateTime = (description: string) =>
  z
    .string()
    .regex(new RegExp(DATE_TIME_PATTERN), 'must be an ISO 8601 date-time such as 2026-11-21T07:54:00Z')
    .openapi({ description, format: 'date-time', pattern: DATE_TIME_PATTERN, minLength: 20, maxLength: 35, example: '2026-11-21T07:54:00Z' });

/** Optional context the caller's backend forwards about its end user (fraud checks use it). */
export const clientContextFields = {
  ip: lineText(100).optional().openapi({ description: "End user's IP address" }),
  userAgent: lineText(1000).optional(),
  deviceId: lineText(200).optional(),
  email: lineText(320).optional(),
};
