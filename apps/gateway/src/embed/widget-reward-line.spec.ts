import { moneyText, rewardLine, type WidgetReward } from './widget/reward-line';
import { LANGUAGES } from './widget/strings';

// How the widget writes a reward (widget/reward-line.ts, pure: no DOM), in English unless said.
const en = LANGUAGES.en!;
const NOW = Date.parse('2026-12-01T12:00:00.000Z');
const reward = (overrides: Partial<WidgetReward> = {}): WidgetReward => ({
  id: 'rwd_1',
  amount: 10,
  currency: 'USD',
  fulfillmentType: 'DISCOUNT_CODE',
  status: 'APPROVED',
  discountCode: null,
  expiresAt: null,
  availableAt: null,
  reversedAmount: 0,
  reversalReason: null,
  createdAt: '2026-11-20T12:00:00.000Z',
  ...overrides,
});

describe("the widget's reward lines", () => {
  it('writes amounts in their currency as the language does, and a plain number without one', () => {
    expect(moneyText(10, 'USD', 'en')).toBe('$10.00');
    expect(moneyText(1234.5, 'EUR', 'de')).toBe('1.234,50\u00a0€');
    expect(moneyText(1235, 'JPY', 'en')).toBe('¥1,235');
    expect(moneyText(12.5, undefined, 'en')).toBe('12.5');
    expect(rewardLine(reward({ currency: undefined, availableAt: undefined, reversedAmount: undefined }), en, 'en', NOW)).toEqual({
      amount: '10',
      status: 'Approved',
      tone: 'approved',
      note: null,
      reversed: false,
    });
  });

  it('says a claimed approved reward is ready, and the others by their status', () => {
    expect(rewardLine(reward({ discountCode: 'ABCD-1234' }), en, 'en', NOW).status).toBe('Ready to use');
    expect(rewardLine(reward({ status: 'PAID' }), en, 'en', NOW).status).toBe('Paid');
  });

  it('says when a held reward becomes available, while that lies ahead', () => {
    const held = reward({ status: 'PENDING', availableAt: '2026-12-15T12:00:00.000Z' });
    expect(rewardLine(held, en, 'en', NOW)).toMatchObject({ status: 'Pending', note: 'Available on Dec 15, 2026', reversed: false });
    expect(rewardLine(held, LANGUAGES.fr!, 'fr', NOW).note).toBe('Disponible le 15 déc. 2026');
    expect(rewardLine({ ...held, availableAt: '2026-11-30T12:00:00.000Z' }, en, 'en', NOW).note).toBeNull();
  });

  it('shows a reward a reversal took back as reversed, and one it reduced with what it took', () => {
    const cancelled = reward({ status: 'CANCELLED', reversedAmount: 10, reversalReason: 'REFUND' });
    expect(rewardLine(cancelled, en, 'en', NOW)).toEqual({ amount: '$10.00', status: 'Reversed', tone: 'reversed', note: null, reversed: true });
    expect(rewardLine(reward({ status: 'PAID', reversedAmount: 10, reversalReason: 'CHARGEBACK' }), en, 'en', NOW)).toMatchObject({ status: 'Reversed', reversed: true });
    const reduced = reward({ amount: 7.5, currency: 'EUR', reversedAmount: 2.5, reversalReason: 'REFUND' });
    expect(rewardLine(reduced, en, 'en', NOW)).toMatchObject({ amount: '€7.50', status: 'Approved', note: 'Reduced by €2.50', reversed: false });
    expect(rewardLine({ ...reduced, status: 'PENDING', availableAt: '2026-12-15T12:00:00.000Z' }, en, 'en', NOW).note).toBe('Reduced by €2.50 · Available on Dec 15, 2026');
  });
});
