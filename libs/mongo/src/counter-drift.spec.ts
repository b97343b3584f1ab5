import { compareCounters, reconcileDrift, stableDrift, type CounterDrift } from './counter-drift';

const drift = (field: string, stored: number, expected: number): CounterDrift => ({ appId: 'app', docId: 'doc', field, stored, expected });

describe('counter drift', () => {
  it('compares counters field by field, a missing one as 0, sums relatively', () => {
    const stored = new Map([['a', 1], ['b', 0.1 + 0.2]]);
    const expected = new Map([['a', 2], ['b', 0.3], ['c', 4]]);
    expect(compareCounters('app', 'doc', stored, expected)).toEqual([drift('a', 1, 2), drift('c', 0, 4)]);
  });

  it('keeps only the drift two passes see alike: a write caught mid-pass is not drift', async () => {
    const passes = [[drift('a', 1, 2), drift('b', 5, 6)], [drift('a', 1, 2), drift('b', 6, 7)]];
    expect(await stableDrift(async () => passes.shift()!, 1)).toEqual([drift('a', 1, 2)]);
    expect(await stableDrift(async () => [], 1)).toEqual([]);
  });

  it('closes stable drift only when asked to fix', async () => {
    const closed: CounterDrift[] = [];
    const close = async (d: CounterDrift) => void closed.push(d);
    expect(await reconcileDrift(async () => [drift('a', 1, 2)], { fix: false, settleMs: 1 }, close)).toEqual([{ ...drift('a', 1, 2), fixed: false }]);
    expect(closed).toEqual([]);
    expect(await reconcileDrift(async () => [drift('a', 1, 2)], { fix: true, settleMs: 1 }, close)).toEqual([{ ...drift('a', 1, 2), fixed: true }]);
    expect(closed).toEqual([drift('a', 1, 2)]);
  });
});
