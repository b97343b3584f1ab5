import type { Body, IncentiveSettings } from '../../../api/types';
import { formatNumber } from '../../../ui/format';

/** The API's bounds of an expiry (apps/gateway/src/routes/incentive-settings.ts). */
export const MIN_EXPIRY_DAYS = 1;
export const MAX_EXPIRY_DAYS = 3650;

export interface ExpiryValues {
  /** Empty: never. */
  coinExpiryDays: number | string;
  tokenExpiryDays: number | string;
}

export function expiryFormValues(settings: Pick<IncentiveSettings, 'coinExpiryDays' | 'tokenExpiryDays'>): ExpiryValues {
  return { coinExpiryDays: settings.coinExpiryDays ?? '', tokenExpiryDays: settings.tokenExpiryDays ?? '' };
}

const daysOf = (value: number | string): number | null => (value === '' ? null : Number(value));

/** PUT /incentives/settings: both expiries, an empty one as null (never). */
export function expiryRequest(values: ExpiryValues): Body<'/api/v1/incentives/settings', 'put'> {
  return { coinExpiryDays: daysOf(values.coinExpiryDays), tokenExpiryDays: daysOf(values.tokenExpiryDays) };
}

/** The form rule of an expiry: empty (never), or a whole number of days from 1 to 3650. */
export function expiryDaysRule(value: number | string): string | null {
  const days = daysOf(value);
  if (days === null) return null;
  return Number.isInteger(days) && days >= MIN_EXPIRY_DAYS && days <= MAX_EXPIRY_DAYS
    ? null
    : `A whole number of days from ${MIN_EXPIRY_DAYS} to ${formatNumber(MAX_EXPIRY_DAYS)}, or empty: never`;
}

/** An expiry in words: `coins expire after 30 days`, `tokens expire after 1 day`, `coins never expire`. */
export function expiryText(what: 'coins' | 'tokens', days: number | null): string {
  if (days === null) return `${what} never expire`;
  return `${what} expire after ${formatNumber(days)} ${days === 1 ? 'day' : 'days'}`;
}
