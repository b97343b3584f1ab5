import { z } from './zod';

// Query strings arrive as text; these turn them into typed values with the
// same error format as every other validation failure.

/** `true` or `false`. */
export const booleanFromQuery = () =>
  z
    .enum(['true', 'false'], { message: 'must be true or false' })
    .transform((value) => value === 'true')
    .optional()
    .openapi({ type: 'boolean' });

/** A whole number of 0 or more (costs, balances). */
export const wholeNumberFromQuery = (name: string) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number of 0 or more`)
    .transform(Number)
    .pipe(z.number().int().max(Number.MAX_SAFE_INTEGER))
    .optional()
    .openapi({ type: 'integer', minimum: 0 });

/** A whole number from the query string, within [min, max], `fallback` when absent. */
export const intFromQuery = (name: string, min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number`)
    .transform(Number)
    .pipe(z.number().int().min(min, `${name} must be at least ${min}`).max(max, `${name} must be at most ${max}`))
    .optional()
    .transform((value) => value ?? fallback)
    .openapi({ type: 'integer', minimum: min, maximum: max, default: fallback });
