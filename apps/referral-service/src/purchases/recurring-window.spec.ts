import { ConnectError } from '@connectrpc/connect';
import { errorReason, toConnectError } from '@ris/rpc';
import { purchaseId } from './purchase-id';
import { FUTURE_TOLERANCE_MS, addCalendarMonths, checkPurchaseTiming, recurringWindowEnd } from './recurring-window';

const at = (iso: string) => new Date(iso);
const iso = (date: Date) => date.toISOString();

/** The public code and details a timing refusal reaches the gateway with (null: accepted). */
function refusal(timing: Parameters<typeof checkPurchaseTiming>[0]) {
  try {
    checkPurchaseTiming(timing);
    return null;
  } catch (err) {
    const refused = toConnectError(err);
    if (!(refused instanceof ConnectError)) throw refused;
    return errorReason(refused);
  }
}

describe('the recurring window', () => {
  it('adds calendar months in UTC, keeping the time of day', () => {
    expect(iso(addCalendarMonths(at('2026-01-15T10:20:30.400Z'), 1))).toBe('2026-02-15T10:20:30.400Z');
    expect(iso(addCalendarMonths(at('2026-11-30T23:59:59.999Z'), 3))).toBe('2027-02-28T23:59:59.999Z');
    expect(iso(addCalendarMonths(at('2026-05-10T00:00:00.000Z'), 120))).toBe('2036-05-10T00:00:00.000Z');
  });

  it("makes a day the target month lacks its last day: Jan 31 + 1 month is Feb 28, or 29 in a leap year", () => {
    expect(iso(addCalendarMonths(at('2026-01-31T12:00:00.000Z'), 1))).toBe('2026-02-28T12:00:00.000Z');
    expect(iso(addCalendarMonths(at('2028-01-31T12:00:00.000Z'), 1))).toBe('2028-02-29T12:00:00.000Z');
    expect(iso(addCalendarMonths(at('2026-03-31T00:00:00.000Z'), 1))).toBe('2026-04-30T00:00:00.000Z');
    expect(iso(addCalendarMonths(at('2028-02-29T08:00:00.000Z'), 12))).toBe('2029-02-28T08:00:00.000Z');
    // Month by month is not the same as all at once: the clamp happens once, from the conversion's own day.
    expect(iso(addCalendarMonths(at('2026-01-31T00:00:00.000Z'), 2))).toBe('2026-03-31T00:00:00.000Z');
    expect(iso(addCalendarMonths(at('2026-12-31T00:00:00.000Z'), 2))).toBe('2027-02-28T00:00:00.000Z');
  });

  it('ends recurringMonths after the conversion, that instant included', () => {
    const convertedAt = at('2026-01-31T09:00:00.000Z');
    const end = recurringWindowEnd(convertedAt, 1);
    expect(iso(end)).toBe('2026-02-28T09:00:00.000Z');
    const timing = { conversionId: 'conv_1', convertedAt, recurringMonths: 1, now: at('2027-01-01T00:00:00.000Z') };
    expect(refusal({ ...timing, occurredAt: convertedAt })).toBeNull();
    expect(refusal({ ...timing, occurredAt: end })).toBeNull();
    expect(refusal({ ...timing, occurredAt: new Date(end.getTime() + 1) })).toEqual({
      reason: 'OUTSIDE_RECURRING_WINDOW',
      details: {
        conversionId: 'conv_1',
        occurredAt: '2026-02-28T09:00:00.001Z',
        convertedAt: '2026-01-31T09:00:00.000Z',
        recurringMonths: 1,
        windowEndsAt: '2026-02-28T09:00:00.000Z',
      },
    });
  });

  it('refuses a purchase dated before its conversion, or more than five minutes ahead of the clock', () => {
    const now = at('2026-06-01T12:00:00.000Z');
    const timing = { conversionId: 'conv_2', convertedAt: at('2026-05-01T12:00:00.000Z'), recurringMonths: 12, now };
    expect(refusal({ ...timing, occurredAt: at('2026-05-01T11:59:59.999Z') })).toEqual({
      reason: 'OCCURRED_AT_INVALID',
      details: { conversionId: 'conv_2', occurredAt: '2026-05-01T11:59:59.999Z', earliest: '2026-05-01T12:00:00.000Z' },
    });
    expect(refusal({ ...timing, occurredAt: new Date(now.getTime() + FUTURE_TOLERANCE_MS) })).toBeNull();
    expect(refusal({ ...timing, occurredAt: new Date(now.getTime() + FUTURE_TOLERANCE_MS + 1) })).toEqual({
      reason: 'OCCURRED_AT_INVALID',
      details: { conversionId: 'conv_2', occurredAt: '2026-06-01T12:05:00.001Z', latest: '2026-06-01T12:05:00.000Z' },
    });
    // Far in the future and past the window: the date itself is wrong first.
    expect(refusal({ ...timing, occurredAt: at('2030-01-01T00:00:00.000Z') })?.reason).toBe('OCCURRED_AT_INVALID');
  });
});

describe('the id of a purchase', () => {
  it('is derived from the app, the conversion and the externalId, whatever the operation', () => {
    const id = purchaseId('app_1', 'conv_1', 'inv-42', 'op-a');
    expect(id).toMatch(/^pur_[A-Za-z0-9_-]{32}$/);
    expect(purchaseId('app_1', 'conv_1', 'inv-42', 'op-b')).toBe(id);
    expect(purchaseId('app_1', 'conv_1', 'inv-42', '')).toBe(id);
    expect(new Set([id, purchaseId('app_2', 'conv_1', 'inv-42', ''), purchaseId('app_1', 'conv_2', 'inv-42', ''), purchaseId('app_1', 'conv_1', 'inv-43', '')]).size).toBe(4);
  });

  it('without an externalId, from the operation key; without either, new each time', () => {
    expect(purchaseId('app_1', 'conv_1', null, 'op-a')).toBe('pur_op-a');
    expect(purchaseId('app_1', 'conv_1', null, '')).not.toBe(purchaseId('app_1', 'conv_1', null, ''));
  });
});
