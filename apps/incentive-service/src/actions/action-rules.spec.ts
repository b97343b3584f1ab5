import { decideReward } from './action-rules';

const at = (s: number) => new Date(Date.UTC(2026, 10, 21) + s * 1000);
const rule = { enabled: true, cooldownSeconds: 0, maxRepeats: null };

describe('action reward rules', () => {
  it('rewards an enabled action without limits', () => {
    expect(decideReward(rule, undefined, at(0))).toBeNull();
    expect(decideReward(rule, { count: 1000, lastAt: at(0) }, at(0))).toBeNull();
  });

  it('refuses a disabled action first', () => {
    expect(decideReward({ ...rule, enabled: false, maxRepeats: 0 }, undefined, at(0))).toBe('ACTION_DISABLED');
  });

  it('stops at maxRepeats rewarded events', () => {
    const capped = { ...rule, maxRepeats: 3 };
    expect(decideReward(capped, { count: 2, lastAt: at(0) }, at(1))).toBeNull();
    expect(decideReward(capped, { count: 3, lastAt: at(0) }, at(1))).toBe('MAX_REPEATS');
    expect(decideReward({ ...rule, maxRepeats: 0 }, undefined, at(0))).toBe('MAX_REPEATS');
  });

  it('applies the cooldown from the last rewarded event', () => {
    const cooling = { ...rule, cooldownSeconds: 60 };
    expect(decideReward(cooling, undefined, at(0))).toBeNull();
    expect(decideReward(cooling, { count: 1, lastAt: at(0) }, at(59))).toBe('COOLDOWN');
    expect(decideReward(cooling, { count: 1, lastAt: at(0) }, at(60))).toBeNull();
  });

  it('reports MAX_REPEATS over COOLDOWN', () => {
    expect(decideReward({ ...rule, cooldownSeconds: 60, maxRepeats: 1 }, { count: 1, lastAt: at(0) }, at(1))).toBe('MAX_REPEATS');
  });
});
