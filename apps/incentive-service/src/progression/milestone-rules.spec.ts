import { applyMovement, emptyBalance } from '../ledger/balance-fold';
import { metricValue, milestonesDue } from './milestone-rules';

describe('milestone rules', () => {
  const state = { ...emptyBalance(), xp: 150, coinsEarned: 40, rewardedEvents: 3, referrals: 1, milestones: ['xp-100'] };

  it('reads each metric from the balance', () => {
    expect(metricValue(state, 'XP')).toBe(150);
    expect(metricValue(state, 'COINS_EARNED')).toBe(40);
    expect(metricValue(state, 'EVENTS')).toBe(3);
    expect(metricValue(state, 'REFERRALS')).toBe(1);
  });

  it('lists reached milestones not yet recorded, lowest threshold first', () => {
    const rules = [
      { key: 'xp-100', metric: 'XP' as const, threshold: 100 },
      { key: 'xp-150', metric: 'XP' as const, threshold: 150 },
      { key: 'events-3', metric: 'EVENTS' as const, threshold: 3 },
      { key: 'refs-2', metric: 'REFERRALS' as const, threshold: 2 },
    ];
    expect(milestonesDue(rules, state).map((m) => m.key)).toEqual(['events-3', 'xp-150']);
    expect(milestonesDue(rules, applyMovement(emptyBalance(), {
      key: 'x', reason: 'ACTION_REWARD', coins: 0, xp: 0, tokens: 0, sourceId: 'e', actionKey: 'a', actionType: 'STANDARD',
      level: null, milestoneKey: null, perks: [], description: null, createdAt: new Date(),
    }))).toEqual([]);
  });
});
