import { describe, expect, it } from 'vitest';
import { campaign } from '../../test/fixtures';
import { formatMoney, formatValue } from '../../ui/format';
import { rewardsText, ruleFormOf, ruleTermsOf, ruleText, termsText } from './reward-rule-form';

const fixed = (amount: number) => ({ amount, percent: null, maxAmount: null });
const share = (percent: number, maxAmount: number | null = null) => ({ amount: null, percent, maxAmount });

describe('amounts in their currency', () => {
  it("writes an amount as Intl does in its currency, with the currency's own decimals", () => {
    expect(formatMoney(10, 'USD')).toBe('$10.00');
    expect(formatMoney(1234.5, 'EUR')).toBe('€1,234.50');
    expect(formatMoney(1234.5, 'JPY')).toBe('¥1,235');
    // Intl puts a no-break space between a code and the number.
    expect(formatMoney(5, 'CHF')).toBe('CHF\u00a05.00');
    expect(formatMoney(0.5, 'BHD')).toBe('BHD\u00a00.500');
  });

  it('writes a code Intl does not know after the number, and a sum without a currency as a plain number', () => {
    expect(formatMoney(12.5, 'XYZ1')).toBe('12.5 XYZ1');
    expect(formatValue(12.5, null)).toBe('12.5');
    expect(formatValue(12.5, 'GBP')).toBe('£12.50');
  });
});

describe('a commission in words', () => {
  it('writes a fixed amount in the campaign currency', () => {
    expect(ruleText(fixed(10), 'USD')).toBe('$10.00');
    expect(ruleText(fixed(0), 'EUR')).toBe('€0.00');
    expect(ruleText(fixed(500), 'JPY')).toBe('¥500');
  });

  it('writes a percentage as typed, with its cap in the campaign currency', () => {
    expect(ruleText(share(10), 'USD')).toBe('10 %');
    expect(ruleText(share(10, 50), 'USD')).toBe('10 % (max $50.00)');
    expect(ruleText(share(2.5, 1000), 'EUR')).toBe('2.5 % (max €1,000.00)');
    expect(ruleText(share(0.0001), 'USD')).toBe('0.0001 %');
    expect(ruleText(share(100, 3000), 'JPY')).toBe('100 % (max ¥3,000)');
  });

  it('writes the holding period and the recurrence, both always', () => {
    expect(termsText({ holdDays: 0, recurringMonths: null })).toBe('no holding period · first conversion only');
    expect(termsText({ holdDays: 1, recurringMonths: 1 })).toBe('held 1 day · recurring 1 month');
    expect(termsText({ holdDays: 30, recurringMonths: 12 })).toBe('held 30 days · recurring 12 months');
  });

  it("writes what a whole campaign pays, levels in order, in its currency", () => {
    const c = campaign({
      currency: 'EUR',
      referrerReward: { ...share(10, 50), fulfillmentType: 'DISCOUNT_CODE' },
      refereeReward: { ...fixed(5), fulfillmentType: 'COUPON_CODE' },
      levels: [
        { level: 3, ...fixed(1) },
        { level: 2, ...share(2.5) },
      ],
      holdDays: 14,
      recurringMonths: 12,
    });
    expect(rewardsText(c)).toBe('Referrer 10 % (max €50.00) · referee €5.00 · level 2 2.5 % · level 3 €1.00 · held 14 days · recurring 12 months');
    expect(rewardsText(campaign())).toBe('Referrer $10.00 · no holding period · first conversion only');
  });
});

describe('a rule between the API and the form', () => {
  it('reads a rule into the form and sends back only the terms of its kind', () => {
    expect(ruleTermsOf(ruleFormOf(fixed(7.5)))).toEqual({ amount: 7.5 });
    expect(ruleTermsOf(ruleFormOf(share(10, 50)))).toEqual({ percent: 10, maxAmount: 50 });
    // No cap: none sent, rather than 0 (which the API refuses).
    expect(ruleTermsOf(ruleFormOf(share(10)))).toEqual({ percent: 10 });
    // Switching kind keeps what the other kind held, and sends only the kind chosen.
    const switched = { ...ruleFormOf(share(10, 50)), kind: 'FIXED' as const, amount: '3' };
    expect(ruleTermsOf(switched)).toEqual({ amount: 3 });
  });
});
