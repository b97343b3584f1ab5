import { REFERRAL_CODE_ALPHABET, generateReferralCode, normalizeReferralCode } from './referral-code';

describe('referral codes', () => {
  it('are 8 upper-case characters without look-alikes', () => {
    for (let i = 0; i < 2000; i += 1) {
      const code = generateReferralCode();
      expect(code).toMatch(/^[A-Z2-9]{8}$/);
      expect(code).not.toMatch(/[01OIL]/);
    }
  });

  it('use every character of the alphabet (no bias towards a subset)', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 500; i += 1) for (const ch of generateReferralCode()) seen.add(ch);
    expect([...seen].sort().join('')).toBe([...REFERRAL_CODE_ALPHABET].sort().join(''));
  });

  it('are matched case-insensitively', () => {
    expect(normalizeReferralCode(' abcd2345 ')).toBe('ABCD2345');
  });
});
