const DAY_MS = 86_400_000;

/** What an app's credits are subject to (PUT /incentives/settings); null: never. */
export interface CreditTerms {
  coinExpiryDays: number | null;
  tokenExpiryDays: number | null;
}

export const NO_EXPIRY: CreditTerms = { coinExpiryDays: null, tokenExpiryDays: null };

/**
 * When coins earned at `at` expire: at the end of the UTC day `days` days
 * after the day they were earned. Whole days make every credit of a day
 * one lot, so a balance holds at most days + 1 lots per currency.
 */
export function lotExpiry(at: Date, days: number | null): Date | null {
  if (days === null) return null;
  return new Date((Math.floor(at.getTime() / DAY_MS) + days + 1) * DAY_MS);
}
