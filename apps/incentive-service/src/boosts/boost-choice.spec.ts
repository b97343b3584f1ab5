import { applicableBoost, boostState, boosted, multiplierHundredths, type BoostTerms } from './boost-choice';

const T = (iso: string) => new Date(`2026-06-01T${iso}Z`);

const boost = (id: string, multiplier: number, extra: Partial<BoostTerms> = {}): BoostTerms => ({
  _id: id,
  multiplier,
  actionKeys: [],
  userIds: [],
  startsAt: T('10:00:00'),
  endsAt: T('12:00:00'),
  ...extra,
});

const event = (at: string, actionKey = 'login', userId = 'u1') => ({ actionKey, userId, at: T(at) });

describe('the boost an event earns under', () => {
  it('is none without boosts', () => {
    expect(applicableBoost([], event('11:00:00'))).toBeNull();
  });

  it('takes the largest of overlapping boosts (they do not add up)', () => {
    const boosts = [boost('bst_a', 1.5), boost('bst_b', 3), boost('bst_c', 2)];
    expect(applicableBoost(boosts, event('11:00:00'))?._id).toBe('bst_b');
  });

  it('breaks a tie by the earlier start, then the smaller id', () => {
    const later = boost('bst_a', 2, { startsAt: T('10:30:00') });
    const earlier = boost('bst_z', 2);
    expect(applicableBoost([later, earlier], event('11:00:00'))?._id).toBe('bst_z');
    expect(applicableBoost([boost('bst_b', 2), boost('bst_a', 2)], event('11:00:00'))?._id).toBe('bst_a');
  });

  it('applies from startsAt (inclusive) to endsAt (exclusive)', () => {
    const boosts = [boost('bst_a', 2)];
    expect(applicableBoost(boosts, event('09:59:59.999'))).toBeNull();
    expect(applicableBoost(boosts, event('10:00:00'))?._id).toBe('bst_a');
    expect(applicableBoost(boosts, event('11:59:59.999'))?._id).toBe('bst_a');
    expect(applicableBoost(boosts, event('12:00:00'))).toBeNull();
  });

  it('takes a smaller boost when the larger one is outside its window', () => {
    const boosts = [boost('bst_big', 5, { startsAt: T('11:00:00') }), boost('bst_small', 1.5)];
    expect(applicableBoost(boosts, event('10:30:00'))?._id).toBe('bst_small');
    expect(applicableBoost(boosts, event('11:30:00'))?._id).toBe('bst_big');
  });

  it('applies only to its actions when it names some', () => {
    const boosts = [boost('bst_purchase', 3, { actionKeys: ['purchase', 'review'] }), boost('bst_all', 1.5)];
    expect(applicableBoost(boosts, event('11:00:00', 'purchase'))?._id).toBe('bst_purchase');
    expect(applicableBoost(boosts, event('11:00:00', 'login'))?._id).toBe('bst_all');
    expect(applicableBoost([boost('bst_purchase', 3, { actionKeys: ['purchase'] })], event('11:00:00', 'login'))).toBeNull();
  });

  it('applies only to its users when it names some', () => {
    const boosts = [boost('bst_vip', 4, { userIds: ['vip-1', 'vip-2'] }), boost('bst_all', 2)];
    expect(applicableBoost(boosts, event('11:00:00', 'login', 'vip-2'))?._id).toBe('bst_vip');
    expect(applicableBoost(boosts, event('11:00:00', 'login', 'u1'))?._id).toBe('bst_all');
  });

  it('needs both its action and its user when it names both', () => {
    const boosts = [boost('bst_a', 2, { actionKeys: ['purchase'], userIds: ['vip-1'] })];
    expect(applicableBoost(boosts, event('11:00:00', 'purchase', 'vip-1'))?._id).toBe('bst_a');
    expect(applicableBoost(boosts, event('11:00:00', 'login', 'vip-1'))).toBeNull();
    expect(applicableBoost(boosts, event('11:00:00', 'purchase', 'u1'))).toBeNull();
  });
});

describe('a boosted amount', () => {
  it('is rounded down', () => {
    expect(boosted(3, 1.1)).toBe(3);
    expect(boosted(10, 1.1)).toBe(11);
    expect(boosted(7, 1.5)).toBe(10);
    expect(boosted(1, 1.99)).toBe(1);
    expect(boosted(0, 10)).toBe(0);
  });

  it('is exact where floating point is not', () => {
    expect(100 * 1.15).toBeLessThan(115);
    expect(boosted(100, 1.15)).toBe(115);
    expect(boosted(1000, 1.13)).toBe(1130);
    expect(boosted(20, 1.15)).toBe(23);
    // Near 10^9 the product's float error passes a small tolerance: floor(10^9 × 2.01 + 1e-9) is 2009999999.
    expect(Math.floor(1_000_000_000 * 2.01 + 1e-9)).toBe(2_009_999_999);
    expect(boosted(1_000_000_000, 2.01)).toBe(2_010_000_000);
    expect(boosted(999_999_999, 1.01)).toBe(1_009_999_998);
    expect(boosted(1_000_000_000, 9.99)).toBe(9_990_000_000);
  });

  it('stays exact past 2^53 in the product, and stops at 2^53 − 1', () => {
    expect(boosted(2 ** 50, 1.5)).toBe(2 ** 50 + 2 ** 49);
    expect(boosted(2 ** 50 + 1, 1.01)).toBe(Number((BigInt(2 ** 50 + 1) * 101n) / 100n));
    expect(boosted(Number.MAX_SAFE_INTEGER, 2)).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('refuses a multiplier of more than 2 decimal places, and an amount that is not whole', () => {
    expect(multiplierHundredths(1.15)).toBe(115);
    expect(multiplierHundredths(1.155)).toBeNull();
    expect(() => boosted(10, 1.155)).toThrow();
    expect(() => boosted(1.5, 2)).toThrow();
  });
});

describe('a boost state', () => {
  it('is SCHEDULED before startsAt, ACTIVE in [startsAt, endsAt), ENDED from endsAt', () => {
    const b = boost('bst_a', 2);
    expect(boostState(b, T('09:59:59.999'))).toBe('SCHEDULED');
    expect(boostState(b, T('10:00:00'))).toBe('ACTIVE');
    expect(boostState(b, T('11:59:59.999'))).toBe('ACTIVE');
    expect(boostState(b, T('12:00:00'))).toBe('ENDED');
  });
});
