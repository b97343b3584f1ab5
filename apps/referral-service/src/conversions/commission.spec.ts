import { isPercentRule, paysShareOfSale, ruleAmount } from './commission';

const percent = (p: number, maxAmount: number | null = null) => ({ amount: 0, percent: p, maxAmount });

describe('ruleAmount', () => {
  it('pays a fixed rule its amount whatever the sale, also without one (rules stored before percentages)', () => {
    expect(ruleAmount({ amount: 10 }, 500, 'USD')).toBe(10);
    expect(ruleAmount({ amount: 12.345, percent: null, maxAmount: null }, null, 'USD')).toBe(12.345);
    expect(ruleAmount({ amount: 0 }, 1000, 'USD')).toBe(0);
  });

  it('pays percent % of the sale', () => {
    expect(ruleAmount(percent(10), 200, 'USD')).toBe(20);
    expect(ruleAmount(percent(12.5), 80, 'USD')).toBe(10);
    expect(ruleAmount(percent(33), 1, 'USD')).toBe(0.33);
  });

  it('rounds to the cent, half away from zero, on the decimals as written', () => {
    expect(ruleAmount(percent(10), 0.05, 'USD')).toBe(0.01); // 0.005 → 0.01
    expect(ruleAmount(percent(10), 0.04, 'USD')).toBe(0); // 0.004 → 0.00
    expect(ruleAmount(percent(100), 1.005, 'USD')).toBe(1.01); // binary 1.00499999… would give 1.00
    expect(ruleAmount(percent(12.5), 10.05, 'USD')).toBe(1.26); // 1.25625
    expect(ruleAmount(percent(15), 19.9, 'USD')).toBe(2.99); // 2.985, binary 2.98499…
    expect(ruleAmount(percent(33.333), 100, 'USD')).toBe(33.33);
    expect(ruleAmount(percent(66.666), 100, 'USD')).toBe(66.67);
    // Half away from zero on a negative sale (a refund), not half up.
    expect(ruleAmount(percent(10), -0.05, 'USD')).toBe(-0.01);
    expect(ruleAmount(percent(50), -0.03, 'USD')).toBe(-0.02);
  });

  it("rounds to the currency's smallest unit: whole yen, thousandths of a dinar", () => {
    expect(ruleAmount(percent(10), 1005, 'JPY')).toBe(101); // 100.5 yen
    expect(ruleAmount(percent(10), 1004, 'JPY')).toBe(100);
    expect(ruleAmount(percent(10, 99.5), 5000, 'JPY')).toBe(99.5); // a cap is taken as set
    expect(ruleAmount(percent(10), 1.0005, 'BHD')).toBe(0.1); // 0.10005
    expect(ruleAmount(percent(10), 1.0055, 'BHD')).toBe(0.101); // 0.10055
    expect(ruleAmount(percent(10), 10.05, 'EUR')).toBe(1.01); // 1.005
  });

  it('pays the whole sale at 100 %, to the cent', () => {
    expect(ruleAmount(percent(100), 49.99, 'USD')).toBe(49.99);
    expect(ruleAmount(percent(100), 1_000_000_000, 'USD')).toBe(1_000_000_000);
    expect(ruleAmount(percent(100), 0.125, 'USD')).toBe(0.13);
  });

  it('caps at maxAmount after rounding, the cap bounding the size of a negative share too', () => {
    expect(ruleAmount(percent(10, 50), 499.99, 'USD')).toBe(50); // 49.999 → 50.00, at the cap
    expect(ruleAmount(percent(10, 50), 1000, 'USD')).toBe(50);
    expect(ruleAmount(percent(10, 50), 100, 'USD')).toBe(10);
    expect(ruleAmount(percent(100, 0.01), 5, 'USD')).toBe(0.01);
    expect(ruleAmount(percent(10, 50), -1000, 'USD')).toBe(-50);
  });

  it('pays nothing for tiny shares below half a cent, and a cent from half a cent on', () => {
    expect(ruleAmount(percent(0.0001), 100, 'USD')).toBe(0); // 0.0001
    expect(ruleAmount(percent(0.0001), 5000, 'USD')).toBe(0.01); // 0.005
    expect(ruleAmount(percent(1e-7), 1_000_000_000, 'USD')).toBe(1); // exponent notation of both factors
    expect(ruleAmount(percent(0.000001), 1e-7, 'USD')).toBe(0);
  });

  it('pays nothing on a zero sale or none (the conversion path refuses the latter first)', () => {
    expect(ruleAmount(percent(10), 0, 'USD')).toBe(0);
    expect(ruleAmount(percent(10, 5), null, 'USD')).toBe(0);
  });

  it('agrees with exact decimal arithmetic on many sales', () => {
    for (let cents = 0; cents <= 20_000; cents += 7) {
      const sale = cents / 100;
      for (const p of [1, 2.5, 7.5, 12.5, 33.3, 99.99]) {
        // In thousandths of a cent: sale (cents) × percent (hundredths) / 100.
        const exact = cents * Math.round(p * 100); // × 10^-4 cents
        const rounded = Math.floor(exact / 10_000) + (exact % 10_000 >= 5_000 ? 1 : 0);
        expect([sale, p, ruleAmount(percent(p), sale, 'USD')]).toEqual([sale, p, rounded / 100]);
      }
    }
  });
});

describe('percentage rules of a campaign', () => {
  const fixed = { amount: 5, fulfillmentType: 'MANUAL' };
  it('tells a percentage rule from a fixed one', () => {
    expect(isPercentRule({ amount: 5 })).toBe(false);
    expect(isPercentRule({ amount: 0, percent: null })).toBe(false);
    expect(isPercentRule({ amount: 0, percent: 5 })).toBe(true);
  });

  it('finds a percentage in the referrer, the referee or any level', () => {
    expect(paysShareOfSale({ referrerReward: fixed, refereeReward: null, levels: [{ level: 2, amount: 1 }] })).toBe(false);
    expect(paysShareOfSale({ referrerReward: { ...fixed, amount: 0, percent: 1 }, refereeReward: null, levels: [] })).toBe(true);
    expect(paysShareOfSale({ referrerReward: fixed, refereeReward: { ...fixed, amount: 0, percent: 1 }, levels: [] })).toBe(true);
    expect(paysShareOfSale({ referrerReward: fixed, refereeReward: fixed, levels: [{ level: 3, amount: 0, percent: 1 }] })).toBe(true);
  });
});
