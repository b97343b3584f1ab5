import { refused } from '@ris/domain-errors';

// When a later purchase of a conversion earns again (docs/product-decisions.md §4.17): judged by when the payment
// happened (occurredAt), against the campaign's recurringMonths counted in calendar months from the conversion.

/**
 * How far past the service's clock a purchase's occurredAt may be: the
 * caller's clock may run a little ahead of ours, and a payment stamped a
 * few seconds "in the future" is still a payment of now.
 */
export const FUTURE_TOLERANCE_MS = 5 * 60_000;

/** Days in a month of a year (UTC), month 0–11. */
function daysInMonth(year: number, month: number): number {
  const last = new Date(0);
  // Day 0 of the next month is this month's last day; setUTCFullYear takes years below 100 as they are (Date.UTC would not).
  last.setUTCFullYear(year, month + 1, 0);
  return last.getUTCDate();
}

/**
 * `from` plus `months` calendar months in UTC, at the same time of day. A
 * day the target month does not have becomes its last day: Jan 31 + 1
 * month is Feb 28 (Feb 29 in a leap year), Mar 31 + 1 month is Apr 30. So
 * a window never spills into the month after its last (as adding the
 * days, or letting Feb 31 roll over to Mar 3, would).
 */
export function addCalendarMonths(from: Date, months: number): Date {
  const to = new Date(from.getTime());
  // From the 1st, so the month moves without rolling over; the day is put back, clamped, after.
  to.setUTCDate(1);
  to.setUTCMonth(to.getUTCMonth() + months);
  to.setUTCDate(Math.min(from.getUTCDate(), daysInMonth(to.getUTCFullYear(), to.getUTCMonth())));
  return to;
}

/** The last instant a purchase earns: the conversion plus recurringMonths calendar months (inclusive). */
export const recurringWindowEnd = (convertedAt: Date, recurringMonths: number): Date => addCalendarMonths(convertedAt, recurringMonths);

export interface PurchaseTiming {
  conversionId: string;
  convertedAt: Date;
  recurringMonths: number;
  occurredAt: Date;
  /** The service's clock (config's now()). */
  now: Date;
}

/**
 * Refuses, before anything is stored, a purchase that cannot earn at its
 * time: one before its conversion, or more than FUTURE_TOLERANCE_MS ahead
 * of now (OCCURRED_AT_INVALID: no payment of that conversion happened
 * then), and one after the recurring window (OUTSIDE_RECURRING_WINDOW).
 */
export function checkPurchaseTiming(t: PurchaseTiming): void {
  const occurredAt = t.occurredAt.toISOString();
  if (t.occurredAt.getTime() < t.convertedAt.getTime()) {
    throw refused('OCCURRED_AT_INVALID', `The purchase is dated before its conversion (${t.convertedAt.toISOString()}).`, {
      conversionId: t.conversionId,
      occurredAt,
      earliest: t.convertedAt.toISOString(),
    });
  }
  const latest = new Date(t.now.getTime() + FUTURE_TOLERANCE_MS);
  if (t.occurredAt.getTime() > latest.getTime()) {
    throw refused('OCCURRED_AT_INVALID', 'The purchase is dated in the future.', { conversionId: t.conversionId, occurredAt, latest: latest.toISOString() });
  }
  const windowEndsAt = recurringWindowEnd(t.convertedAt, t.recurringMonths);
  if (t.occurredAt.getTime() > windowEndsAt.getTime()) {
    throw refused(
      'OUTSIDE_RECURRING_WINDOW',
      `The purchase came after the campaign's ${t.recurringMonths} recurring months, which ended ${windowEndsAt.toISOString()}.`,
      { conversionId: t.conversionId, occurredAt, convertedAt: t.convertedAt.toISOString(), recurringMonths: t.recurringMonths, windowEndsAt: windowEndsAt.toISOString() },
    );
  }
}
