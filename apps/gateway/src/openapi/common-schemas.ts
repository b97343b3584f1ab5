import { intFromQuery } from './query-values';
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

/** A required identifier: a non-empty string of sane length. */
export const id = (description: string) =>
  z.string().trim().min(1, 'must not be empty').max(200).openapi({ description });

export const timestamp = z.string().openapi({ format: 'date-time', example: '2026-11-21T07:54:00.000Z' });

/** Optional context the caller's backend forwards about its end user (fraud checks use it). */
export const clientContextFields = {
  ip: z.string().max(100).optional().openapi({ description: "End user's IP address" }),
  userAgent: z.string().max(1000).optional(),
  deviceId: z.string().max(200).optional(),
  email: z.string().max(320).optional(),
};
