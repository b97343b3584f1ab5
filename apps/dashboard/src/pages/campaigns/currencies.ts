/**
 * The currencies a campaign may be in: the ISO 4217 codes Intl knows (the
 * API checks against the same list, `Intl.supportedValuesOf('currency')`, on
 * its side), each with its English name for the searchable select.
 */
const names = new Intl.DisplayNames(['en'], { type: 'currency' });

export const CURRENCIES: { value: string; label: string }[] = Intl.supportedValuesOf('currency').map((code) => ({
  value: code,
  label: `${code} — ${names.of(code) ?? code}`,
}));

const codes = new Set(CURRENCIES.map((c) => c.value));

export const isKnownCurrency = (code: string) => codes.has(code);
