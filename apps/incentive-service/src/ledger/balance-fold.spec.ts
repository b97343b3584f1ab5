import { applyMovement, balanceUpdate, emptyBalance, type Movement } from './balance-fold';

const base: Omit<Movement, 'key' | 'reason' | 'cause' | 'createdAt'> = {
  coins: 0,
  xp: 0,
  tokens: 0,
  sourceId: 'src',
  actionKey: null,
  actionType: null,
  level: null,
  milestoneKey: null,
  perks: [],
  description: null,
};
const move = (m: Partial<Movement> & Pick<Movement, 'key' | 'reason'>): Omit<Movement, 'cause'> => ({ ...base, createdAt: new Date('2026-11-21T07:54:00Z'), ...m });

describe('balance fold', () => {
  it('sums amounts and counts rewards, earned coins and referrals', () => {
    let s = emptyBalance();
    s = applyMovement(s, move({ key: 'e1', reason: 'ACTION_REWARD', coins: 10, xp: 5, actionKey: 'login', actionType: 'STANDARD' }));
    s = applyMovement(s, move({ key: 'e2', reason: 'ACTION_REWARD', coins: 3, actionKey: 'conv', actionType: 'REFERRAL_REFEREE_ACTION' }));
    s = applyMovement(s, move({ key: 'd1', reason: 'DEBIT', coins: -8, tokens: 0 }));
    s = applyMovement(s, move({ key: 'c1', reason: 'CREDIT', coins: 4, tokens: 2 }));
    expect(s).toMatchObject({ seq: 4, coins: 9, xp: 5, tokens: 2, coinsEarned: 13, rewardedEvents: 2, referrals: 1 });
    expect(s.actions.login).toEqual({ count: 1, lastAt: new Date('2026-11-21T07:54:00Z') });
  });

  it('keeps XP per day, week and month, dropping periods older than the previous one', () => {
    let s = emptyBalance();
    s = applyMovement(s, move({ key: 'a', reason: 'ACTION_REWARD', xp: 5, actionKey: 'k', createdAt: new Date('2026-11-19T10:00:00Z') }));
    s = applyMovement(s, move({ key: 'b', reason: 'ACTION_REWARD', xp: 7, actionKey: 'k', createdAt: new Date('2026-11-21T10:00:00Z') }));
    expect(Object.keys(s.periods).sort()).toEqual(['D2026-11-21', 'M2026-11', 'W2026-W47']);
    expect(s.periods['M2026-11']).toEqual({ xp: 12, at: new Date('2026-11-21T10:00:00Z') });
    expect(s.xpChangedAt).toEqual(new Date('2026-11-21T10:00:00Z'));
    // A score override never takes a period below zero.
    s = applyMovement(s, move({ key: 'c', reason: 'SCORE_SET', xp: -100, createdAt: new Date('2026-11-21T11:00:00Z') }));
    expect(s.xp).toBe(-88);
    expect(s.periods['D2026-11-21'].xp).toBe(0);
  });

  it('records levels, perks and milestones once', () => {
    let s = emptyBalance();
    s = applyMovement(s, move({ key: 'l2', reason: 'LEVEL_REWARD', coins: 50, level: 2, perks: ['shipping'] }));
    s = applyMovement(s, move({ key: 'l1', reason: 'LEVEL_REWARD', level: 1, perks: ['shipping', 'support'] }));
    s = applyMovement(s, move({ key: 'm', reason: 'MILESTONE_REWARD', milestoneKey: 'first-100' }));
    expect(s).toMatchObject({ levelsGranted: [1, 2], perks: ['shipping', 'support'], milestones: ['first-100'], coinsEarned: 50 });
  });

  it('turns a fold into an update of only what changed', () => {
    const before = applyMovement(emptyBalance(), move({ key: 'a', reason: 'ACTION_REWARD', coins: 1, xp: 1, actionKey: 'k' }));
    const after = applyMovement(before, move({ key: 'b', reason: 'DEBIT', coins: -1 }));
    expect(balanceUpdate(before, after)).toEqual({ $inc: { seq: 1, coins: -1 }, $set: {}, $unset: {} });
    const later = applyMovement(after, move({ key: 'c', reason: 'ACTION_REWARD', xp: 2, actionKey: 'k', createdAt: new Date('2027-01-05T00:00:00Z') }));
    const update = balanceUpdate(after, later);
    expect(update.$inc).toEqual({ seq: 1, xp: 2, rewardedEvents: 1 });
    expect(Object.keys(update.$set).sort()).toEqual(['actions.k', 'periods.D2027-01-05', 'periods.M2027-01', 'periods.W2027-W01', 'xpChangedAt']);
    expect(Object.keys(update.$unset).sort()).toEqual(['periods.D2026-11-21', 'periods.M2026-11', 'periods.W2026-W47']);
  });
});
