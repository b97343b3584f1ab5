import { CODE_ALPHABET as REWARD_CODE_ALPHABET } from '@ris/codes';
import { generateRewardCode, normalizeRewardCode } from './reward-code';

describe('reward codes', () => {
  it('are three groups of four characters without look-alikes', () => {
    for (let i = 0; i < 2000; i += 1) {
      const code = generateRewardCode();
      expect(code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
      expect(code).not.toMatch(/[01OIL]/);
    }
  });

  it('do not repeat and use the whole alphabet', () => {
    const codes = new Set(Array.from({ length: 5000 }, generateRewardCode));
    expect(codes.size).toBe(5000);
    const seen = new Set([...codes].join('').replace(/-/g, ''));
    expect([...seen].sort().join('')).toBe([...REWARD_CODE_ALPHABET].sort().join(''));
  });

  it('are matched whatever the case, dashes or spaces', () => {
    expect(normalizeRewardCode(' abcd efgh-jkmn ')).toBe('ABCD-EFGH-JKMN');
    expect(normalizeRewardCode('abcdefghjkmn')).toBe('ABCD-EFGH-JKMN');
    expect(normalizeRewardCode('short')).toBe('SHORT');
  });
});
