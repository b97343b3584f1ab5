/**
 * Currencies of campaigns and of what they pay (ISO 4217 alphabetic codes),
 * shared by the gateway (its OpenAPI document and request checks) and the
 * services that store them, so both accept exactly the same codes.
 */

/** The currency of a campaign that names none, and of every campaign, conversion and reward stored before currencies existed. */
export const DEFAULT_CURRENCY = 'USD';

/**
 * The codes accepted: those the runtime's ICU data knows
 * (`Intl.supportedValuesOf('currency')`: the ISO 4217 codes in use, the
 * ones Intl.NumberFormat can show). Read once; the gateway and the services
 * run on the same Node, so they agree (docs/product-decisions.md §3.7).
 */
export const CURRENCY_CODES: readonly [string, ...string[]] = (() => {
  const codes = Intl.supportedValuesOf('currency');
  // Never empty on Node (full ICU since 13); a build without it could not check any code.
  if (codes.length === 0) throw new Error('This runtime knows no ISO 4217 currency (Intl.supportedValuesOf)');
  return codes as [string, ...string[]];
})();

const known = new Set<string>(CURRENCY_CODES);

/** An ISO 4217 code this runtime knows, in upper case as the standard writes it. */
export const isCurrencyCode = (value: string): boolean => known.has(value);

const digits = new Map<string, number>();

/**
 * Decimals of the currency's smallest unit (its minor unit: 2 for USD and
 * EUR, 0 for JPY, 3 for BHD), as Intl.NumberFormat shows the currency.
 */
export function currencyDigits(code: string): number {
  let found = digits.get(code);
  if (found === undefined) {
    found = new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
    digits.set(code, found);
  }
  return found;
}
