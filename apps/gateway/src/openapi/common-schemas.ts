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

const intFromQuery = (name: string, min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number`)
    .transform(Number)
    .pipe(z.number().int().min(min, `${name} must be at least ${min}`).max(max, `${name} must be at most ${max}`))
    .optional()
    .transform((value) => value ?? fallback)
    .openapi({ type: 'integer', minimum: min, maximum: max, default: fallback });

/** page (>= 1, default 1) and limit (1..100, default 25) on every list. */
export const pageQuery = {
  page: intFromQuery('page', 1, 1_000_000, 1),
  limit: intFromQuery('limit', 1, 100, 25),
};

export function pagination(page: { page: number; limit: number; totalItems: number }) {
  return {
    page: page.page,
    limit: page.limit,
    totalItems: page.totalItems,
    totalPages: Math.ceil(page.totalItems / page.limit),
  };
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
