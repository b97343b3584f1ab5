import type { RuleTerms } from '../campaigns/campaign.model';
import { deepestLevel, levelAmount, planRewards } from './reward-plan';

const campaign = {
  referrerReward: { amount: 10, fulfillmentType: 'DISCOUNT_CODE' },
  refereeReward: null as (RuleTerms & { fulfillmentType: string }) | null,
  levels: [
    { level: 2, amount: 5 },
    { level: 3, amount: 2 },
  ] as Array<RuleTerms & { level: number }>,
  currency: 'USD',
};

const record = (level: number, referrerId: string, attributed = true) => ({
  level,
  referrerId,
  refereeId: 'dora',
  referralId: `ref_${referrerId}`,
  attributed,
});

const grant = (level: number, userId: string, amount: number, currency = 'USD') => ({
  side: 'REFERRER',
  level,
  userId,
  referralId: `ref_${userId}`,
  amount,
  currency,
  fulfillmentType: 'DISCOUNT_CODE',
  shareOfSale: false,
});

describe('reward plan', () => {
  it('pays each level its configured amount with the referrer fulfillment type, whatever the sale', () => {
    const expected = [grant(1, 'carl', 10), grant(2, 'bert', 5), grant(3, 'anna', 2)];
    expect(planRewards(campaign, [record(3, 'anna'), record(1, 'carl'), record(2, 'bert')], null)).toEqual(expected);
    expect(planRewards(campaign, [record(3, 'anna'), record(1, 'carl'), record(2, 'bert')], 1000)).toEqual(expected);
  });

  it('rewards the referee on a double-sided campaign', () => {
    const doubleSided = { ...campaign, refereeReward: { amount: 7, fulfillmentType: 'COUPON_CODE' } };
    expect(planRewards(doubleSided, [record(1, 'carl')], null)).toContainEqual({
      side: 'REFEREE',
      level: 1,
      userId: 'dora',
      referralId: 'ref_carl',
      amount: 7,
      currency: 'USD',
      fulfillmentType: 'COUPON_CODE',
      shareOfSale: false,
    });
  });

  it('pays percentage rules a share of the sale, each capped on its own, in the campaign currency', () => {
    const commission = {
      referrerReward: { amount: 0, percent: 10, maxAmount: 50, fulfillmentType: 'DISCOUNT_CODE' },
      refereeReward: { amount: 0, percent: 5, maxAmount: null, fulfillmentType: 'COUPON_CODE' },
      levels: [
        { level: 2, amount: 0, percent: 2.5 },
        { level: 3, amount: 3 },
      ],
      currency: 'EUR',
    };
    const grants = planRewards(commission, [record(1, 'carl'), record(2, 'bert'), record(3, 'anna')], 999.99);
    expect(grants.map((g) => [g.side, g.level, g.amount, g.currency, g.shareOfSale])).toEqual([
      ['REFERRER', 1, 50, 'EUR', true], // 10 % of 999.99 is 100.00, capped at 50
      ['REFERRER', 2, 25, 'EUR', true], // 2.5 % of 999.99 = 24.99975 → 25.00
      ['REFERRER', 3, 3, 'EUR', false], // a fixed level among percentages
      ['REFEREE', 1, 50, 'EUR', true], // 5 % of 999.99 = 49.9995 → 50.00
    ]);
  });

  it('skips zero amounts (a percentage of a zero sale, or of none), unconfigured levels and unattributed conversions', () => {
    const sparse = { ...campaign, referrerReward: { amount: 0, fulfillmentType: 'MANUAL' }, levels: [{ level: 3, amount: 1 }] };
    expect(planRewards(sparse, [record(1, 'carl'), record(2, 'bert'), record(3, 'anna')], 10).map((g) => g.level)).toEqual([3]);
    expect(planRewards(campaign, [record(1, 'carl', false)], 10)).toEqual([]);
    const percent = { ...campaign, referrerReward: { amount: 0, percent: 10, fulfillmentType: 'MANUAL' }, levels: [] };
    expect(planRewards(percent, [record(1, 'carl')], 0)).toEqual([]);
    expect(planRewards(percent, [record(1, 'carl')], null)).toEqual([]);
    // 0.0001 % of 100 is a hundredth of a cent: rounds to nothing.
    expect(planRewards({ ...percent, referrerReward: { amount: 0, percent: 0.0001, fulfillmentType: 'MANUAL' } }, [record(1, 'carl')], 100)).toEqual([]);
  });

  it('knows the deepest level and each level amount', () => {
    expect(deepestLevel(campaign)).toBe(3);
    expect(deepestLevel({ levels: [] })).toBe(1);
    expect(levelAmount(campaign, 1, null)).toBe(10);
    expect(levelAmount(campaign, 4, null)).toBe(0);
    expect(levelAmount({ ...campaign, levels: [{ level: 2, amount: 0, percent: 1 }] }, 2, 250)).toBe(2.5);
  });
});
