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
