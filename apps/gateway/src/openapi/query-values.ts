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

/**
 * A whole number within [min, max] written in a path or query string. JSON
 * Schema's integers include 93.0, so a zero fraction is accepted too.
 */
export const integerText = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^[0-9]+(?:\.0+)?$/, `${name} must be a whole number`)
    .transform(Number)
    .pipe(z.number().int().min(min, `${name} must be at least ${min}`).max(max, `${name} must be at most ${max}`))
    .openapi({ type: 'integer', minimum: min, maximum: max });

/** A decimal amount of 0 or more, at most `max`, written in a query string (a minimum to pay). */
export const amountFromQuery = (name: string, max: number) =>
  z
    .string()
    // Any JSON number (1e-05 and 100000.0 included, as generated clients write them); below 0 is refused by min.
    .regex(/^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/, `${name} must be a number`)
    .transform(Number)
    .pipe(z.number().min(0, `${name} must be 0 or more`).max(max, `${name} must be at most ${max}`))
    .openapi({ type: 'number', minimum: 0, maximum: max });

/** A whole number of 0 or more (a filter on costs or balances). */
export const wholeNumberFromQuery = (name: string) =>
  integerText(name, 0, Number.MAX_SAFE_INTEGER).optional().openapi({ type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER });

/** A whole number from the query string, within [min, max], `fallback` when absent. */
export const intFromQuery = (name: string, min: number, max: number, fallback: number) =>
  integerText(name, min, max)
    .optional()
    .transform((value) => value ?? fallback)
    .openapi({ type: 'integer', minimum: min, maximum: max, default: fallback });
