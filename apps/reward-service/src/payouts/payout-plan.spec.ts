import { planPayouts, sumAmounts } from './payout-plan';

const item = (id: string, userId: string, amount: number, currency = 'USD') => ({ id, userId, currency, amount });

describe('payout plan', () => {
  it('sums in whole cents', () => {
    expect(sumAmounts([0.1, 0.2], 'USD')).toBe(0.3);
    expect(sumAmounts(Array(1000).fill(0.01), 'USD')).toBe(10);
    expect(sumAmounts([100, 0.4], 'JPY')).toBe(100);
  });

  it('nets clawbacks per referrer and currency, and pays those who reach the minimum', () => {
    const due = planPayouts(
      [item('r1', 'ana', 30), item('r2', 'ana', 20.5), item('r3', 'bob', 10), item('r4', 'ana', 7, 'EUR'), item('r5', 'cy', 5)],
      [item('c1', 'ana', 10.25), item('c2', 'cy', 8)],
      10,
    );
    expect(due.map((d) => [d.userId, d.currency, d.rewardsAmount, d.clawbacksAmount, d.amount, d.payable])).toEqual([
      ['ana', 'USD', 50.5, 10.25, 40.25, true],
      ['bob', 'USD', 10, 0, 10, true],
      ['ana', 'EUR', 7, 0, 7, false],
      ['cy', 'USD', 5, 8, -3, false],
    ]);
    expect(due[0].rewards.map((r) => r.id)).toEqual(['r1', 'r2']);
    expect(due[0].clawbacks.map((c) => c.id)).toEqual(['c1']);
  });

  it('never pays a net of zero or less, whatever the minimum', () => {
    expect(planPayouts([item('r1', 'ana', 5)], [item('c1', 'ana', 5)], 0)[0].payable).toBe(false);
    expect(planPayouts([], [item('c1', 'ana', 5)], 0)[0]).toMatchObject({ amount: -5, payable: false });
  });
});
