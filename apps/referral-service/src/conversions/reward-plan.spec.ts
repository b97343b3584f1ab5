import { deepestLevel, levelAmount, planRewards } from './reward-plan';

const campaign = {
  referrerReward: { amount: 10, fulfillmentType: 'DISCOUNT_CODE' },
  refereeReward: null as { amount: number; fulfillmentType: string } | null,
  levels: [
    { level: 2, amount: 5 },
    { level: 3, amount: 2 },
  ],
};

const record = (level: number, referrerId: string, attributed = true) => ({
  level,
  referrerId,
  refereeId: 'dora',
  referralId: `ref_${referrerId}`,
  attributed,
});

describe('reward plan', () => {
  it('pays each level its configured amount with the referrer fulfillment type', () => {
    expect(planRewards(campaign, [record(3, 'anna'), record(1, 'carl'), record(2, 'bert')])).toEqual([
      { side: 'REFERRER', level: 1, userId: 'carl', referralId: 'ref_carl', amount: 10, fulfillmentType: 'DISCOUNT_CODE' },
      { side: 'REFERRER', level: 2, userId: 'bert', referralId: 'ref_bert', amount: 5, fulfillmentType: 'DISCOUNT_CODE' },
      { side: 'REFERRER', level: 3, userId: 'anna', referralId: 'ref_anna', amount: 2, fulfillmentType: 'DISCOUNT_CODE' },
    ]);
  });

  it('rewards the referee on a double-sided campaign', () => {
    const doubleSided = { ...campaign, refereeReward: { amount: 7, fulfillmentType: 'COUPON_CODE' } };
    expect(planRewards(doubleSided, [record(1, 'carl')])).toContainEqual({
      side: 'REFEREE',
      level: 1,
      userId: 'dora',
      referralId: 'ref_carl',
      amount: 7,
      fulfillmentType: 'COUPON_CODE',
    });
  });

  it('skips zero amounts, unconfigured levels and unattributed conversions', () => {
    const sparse = { ...campaign, referrerReward: { amount: 0, fulfillmentType: 'MANUAL' }, levels: [{ level: 3, amount: 1 }] };
    expect(planRewards(sparse, [record(1, 'carl'), record(2, 'bert'), record(3, 'anna')]).map((g) => g.level)).toEqual([3]);
    expect(planRewards(campaign, [record(1, 'carl', false)])).toEqual([]);
  });

  it('knows the deepest level and each level amount', () => {
    expect(deepestLevel(campaign)).toBe(3);
    expect(deepestLevel({ levels: [] })).toBe(1);
    expect(levelAmount(campaign, 1)).toBe(10);
    expect(levelAmount(campaign, 4)).toBe(0);
  });
});
