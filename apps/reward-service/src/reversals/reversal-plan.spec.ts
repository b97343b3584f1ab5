import { reversalStep, toMinorUnit, valueToKeep } from './reversal-plan';

const reward = (over: Partial<Parameters<typeof reversalStep>[0] & Parameters<typeof valueToKeep>[0]> = {}) => ({
  status: 'APPROVED' as const,
  amount: 10,
  earnedAmount: 10,
  shareOfSale: true,
  clawedBack: 0,
  currency: 'USD',
  payoutId: null as string | null,
  ...over,
});

describe('reversal plan', () => {
  it('keeps the standing share of a share-of-sale reward, rounded to the currency unit', () => {
    expect(valueToKeep(reward(), { full: false, remainingShare: 0.6 })).toBe(6);
    expect(valueToKeep(reward({ earnedAmount: 3.33, amount: 3.33 }), { full: false, remainingShare: 0.5 })).toBe(1.67);
    expect(valueToKeep(reward({ earnedAmount: 333, amount: 333, currency: 'JPY' }), { full: false, remainingShare: 0.5 })).toBe(167);
    expect(toMinorUnit(10 * 0.6, 'USD')).toBe(6);
  });

  it('takes everything back on a full reversal and leaves a fixed reward on a partial one', () => {
    expect(valueToKeep(reward({ shareOfSale: false }), { full: true, remainingShare: 0 })).toBe(0);
    expect(valueToKeep(reward({ shareOfSale: false }), { full: false, remainingShare: 0.5 })).toBeNull();
    expect(valueToKeep(reward(), { full: false, remainingShare: 0 })).toBe(0);
  });

  it('reduces or cancels a reward not paid out, and never gives value back', () => {
    expect(reversalStep(reward(), 6)).toEqual({ effect: 'REDUCED', from: 10, to: 6, clawback: 0, amount: 6 });
    expect(reversalStep(reward({ status: 'PENDING' }), 0)).toEqual({ effect: 'CANCELLED', from: 10, to: 0, clawback: 0, amount: 0 });
    expect(reversalStep(reward({ amount: 4 }), 6)).toEqual({ effect: 'UNCHANGED', from: 4, to: 4, clawback: 0, amount: 4 });
    expect(reversalStep(reward(), null).effect).toBe('UNCHANGED');
    expect(reversalStep(reward({ status: 'CANCELLED' }), 0).effect).toBe('UNCHANGED');
  });

  it('owes back what a paid reward should no longer be worth, less what is owed already', () => {
    expect(reversalStep(reward({ status: 'PAID' }), 0)).toEqual({ effect: 'CLAWBACK', from: 10, to: 0, clawback: 10, amount: 10 });
    expect(reversalStep(reward({ status: 'PAID', clawedBack: 4 }), 3)).toEqual({ effect: 'CLAWBACK', from: 6, to: 3, clawback: 3, amount: 10 });
    expect(reversalStep(reward({ status: 'PAID', clawedBack: 4 }), 6).effect).toBe('UNCHANGED');
    expect(reversalStep(reward({ status: 'PAID' }), null).effect).toBe('UNCHANGED');
  });

  it('claws back a reward in a payout, which is being paid, instead of reducing it', () => {
    expect(reversalStep(reward({ payoutId: 'po_1' }), 4)).toEqual({ effect: 'CLAWBACK', from: 10, to: 4, clawback: 6, amount: 10 });
    expect(reversalStep(reward({ payoutId: 'po_1' }), 0)).toEqual({ effect: 'CLAWBACK', from: 10, to: 0, clawback: 10, amount: 10 });
  });

  it('reduces a reward whose payout failed by its worth, keeping the clawback owed beside it in its amount', () => {
    // 10 earned, 6 clawed back while in a payout that failed: worth 4. Keep 3: amount 3 + 6 owed = 9, never 3 (owed twice).
    expect(reversalStep(reward({ clawedBack: 6 }), 3)).toEqual({ effect: 'REDUCED', from: 4, to: 3, clawback: 0, amount: 9 });
    // Taken back in full: worth 0, the amount still carries what is owed, so the net payable is 0, not -6.
    expect(reversalStep(reward({ clawedBack: 6 }), 0)).toEqual({ effect: 'REDUCED', from: 4, to: 0, clawback: 0, amount: 6 });
  });
});
