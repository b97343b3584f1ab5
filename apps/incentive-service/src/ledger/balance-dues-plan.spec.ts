import { applyMovement, emptyBalance, expiringSoon, nextDueAt, repayingDebt, type BalanceState, type Movement } from './balance-fold';
import { dueMovements } from './balance-dues-plan';
import { lotExpiry } from './credit-expiry';

const DAY = 86_400_000;
const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * DAY);
const base = { xp: 0, tokens: 0, actionKey: null, actionType: null, level: null, milestoneKey: null, perks: [], description: null };
const credit = (key: string, coins: number, at: Date, expireDays: number | null): Movement => ({
  ...base,
  key,
  reason: 'ADJUSTMENT',
  cause: 'ADJUSTMENT',
  coins,
  sourceId: key,
  coinsExpireAt: lotExpiry(at, expireDays),
  createdAt: at,
});
const apply = (state: BalanceState, ...ms: Movement[]) => ms.reduce((s, m) => applyMovement(s, m), state);

describe('lots, pending credits and debts in the balance fold', () => {
  it('a lot expires at the end of the UTC day N days after it was earned; lots of a day merge', () => {
    expect(lotExpiry(new Date('2026-01-01T23:59:00Z'), 10)?.toISOString()).toBe('2026-01-12T00:00:00.000Z');
    const s = apply(emptyBalance(), credit('a', 10, day(0), 10), credit('b', 5, new Date(day(0).getTime() + 3600_000), 10));
    expect(s.coinLots).toEqual([{ expiresAt: day(11), amount: 15 }]);
  });

  it('debits take the soonest lots first, coins that never expire last', () => {
    const s = apply(emptyBalance(), credit('never', 100, day(0), null), credit('a', 30, day(0), 10), credit('b', 50, day(3), 10), { ...credit('spend', -40, day(4), null) });
    expect(s.coins).toBe(140);
    expect(s.coinLots).toEqual([{ expiresAt: day(14), amount: 40 }]);
    expect(expiringSoon(s)).toEqual([{ currency: 'COINS', amount: 40, expiresAt: day(14) }]);
  });

  it('the expiry is one movement of what lapsed, which the fold takes from exactly those lots', () => {
    const s = apply(emptyBalance(), credit('a', 30, day(0), 10), credit('b', 50, day(3), 10), credit('never', 7, day(3), null));
    expect(dueMovements(s, 'u', day(10))).toEqual([]);
    const [expiry] = dueMovements(s, 'u', day(12));
    expect(expiry).toMatchObject({ reason: 'EXPIRY', coins: -30, key: `expiry:u:${day(11).getTime()}` });
    const after = applyMovement(s, expiry);
    expect([after.coins, after.coinLots]).toEqual([57, [{ expiresAt: day(14), amount: 50 }]]);
    expect(nextDueAt(after)).toEqual(day(14));
  });

  it('a pending credit is released once its time comes, and a reversal before that cancels it', () => {
    const pending: Movement = { ...credit('event:e1', 0, day(0), null), reason: 'ACTION_REWARD', sourceId: 'e1', pendingCoins: 100, pendingTokens: 2, pendingUntil: day(14) };
    const s = apply(emptyBalance(), pending);
    expect([s.coins, s.pendingCoins, nextDueAt(s)]).toEqual([0, 100, day(14)]);
    expect(dueMovements(s, 'u', day(13))).toEqual([]);
    const [release] = dueMovements(s, 'u', day(14));
    expect(release).toMatchObject({ key: 'release:e1', reason: 'PENDING_RELEASE', coins: 100, tokens: 2, pendingCoins: -100 });
    const released = applyMovement(s, release);
    expect([released.coins, released.tokens, released.pendingCoins, released.pending]).toEqual([100, 2, 0, []]);
    const cancelled = applyMovement(s, { ...credit('reversal:e1', 0, day(1), null), reason: 'REVERSAL', sourceId: 'e1', pendingCoins: -100, pendingTokens: -2 });
    expect([cancelled.pendingCoins, cancelled.pending, dueMovements(cancelled, 'u', day(20))]).toEqual([0, [], []]);
  });

  it('a debt is repaid by the next credits before they are spendable', () => {
    const owing = applyMovement(emptyBalance(), { ...credit('reversal:e', 0, day(0), null), reason: 'REVERSAL', debt: { coins: 40, tokens: 0 } });
    expect(owing.debtCoins).toBe(40);
    const first = repayingDebt(owing, credit('c1', 30, day(1), null));
    expect([first.coins, first.debtRepaid]).toEqual([0, { coins: 30, tokens: 0 }]);
    const after = apply(owing, first);
    const second = repayingDebt(after, credit('c2', 25, day(1), null));
    expect([second.coins, second.debtRepaid]).toEqual([15, { coins: 10, tokens: 0 }]);
    expect(apply(after, second)).toMatchObject({ coins: 15, debtCoins: 0 });
    // A debit is never a repayment.
    expect(repayingDebt(owing, credit('d', -5, day(1), null)).debtRepaid).toBeUndefined();
  });
});
