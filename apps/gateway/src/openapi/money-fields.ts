import { CURRENCY_CODES, DEFAULT_CURRENCY } from '@ris/contracts';
import { z } from './zod';

/**
 * A currency a request names: an ISO 4217 code the runtime knows
 * (`Intl.supportedValuesOf('currency')`, the list the services check too),
 * one component of the document so its codes are listed once.
 */
export const Currency = z.enum(CURRENCY_CODES).openapi('Currency', {
  description: 'ISO 4217 alphabetic code, upper case (e.g. USD, EUR, JPY)',
  example: DEFAULT_CURRENCY,
});

/**
 * An optional currency of a request, with what it is for. Described with
 * describe(), not openapi(), and without a default (the description states
 * it): either would rewrite the component itself (zod-to-openapi), which
 * createRegistry() registers before any use.
 */
export const currencyField = (description: string) => Currency.describe(description).optional();

/**
 * A currency an answer states: an ISO 4217 code. A plain pattern, not the
 * request's list: a record keeps the code it was made with even if a later
 * runtime's list drops it.
 */
export const currencyCode = (description: string) => z.string().regex(/^[A-Z]{3}$/).openapi({ description, example: 'EUR' });
