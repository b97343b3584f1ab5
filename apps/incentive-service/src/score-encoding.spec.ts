import { MAX_XP_WITH_SECOND_TIES, decodeXp, encodeScore } from './score-encoding';

const t = (iso: string) => new Date(iso);

describe('leaderboard score encoding', () => {
  it('orders by XP first', () => {
    expect(encodeScore(11, t('2030-01-01T00:00:00Z'))).toBeGreaterThan(encodeScore(10, t('2025-01-01T00:00:00Z')));
    expect(encodeScore(1, t('2093-01-01T00:00:00Z'))).toBeGreaterThan(encodeScore(0, t('2025-01-01T00:00:00Z')));
  });

  it('breaks ties by who reached the XP first, to the second', () => {
    const earlier = encodeScore(500, t('2026-11-21T07:54:00Z'));
    const later = encodeScore(500, t('2026-11-21T07:54:01Z'));
    expect(earlier).toBeGreaterThan(later);
    expect(encodeScore(500, t('2026-11-21T07:54:00.900Z'))).toBe(earlier);
  });

  it('decodes XP exactly, up to 2^52', () => {
    for (const xp of [0, 1, 2, 999, MAX_XP_WITH_SECOND_TIES, MAX_XP_WITH_SECOND_TIES + 1, 123_456_789, 2 ** 40 + 3, 2 ** 52 - 1]) {
      const score = encodeScore(xp, t('2093-01-01T00:00:00Z'));
      expect(Number.isInteger(score)).toBe(true);
      expect(decodeXp(score)).toBe(xp);
      expect(decodeXp(encodeScore(xp, t('2025-01-01T00:00:00Z')))).toBe(xp);
    }
  });

  it('stays an exact integer (no rounding) and keeps the XP order above 2^22', () => {
    const big = MAX_XP_WITH_SECOND_TIES + 1;
    const a = encodeScore(big, t('2026-01-01T00:00:00Z'));
    const b = encodeScore(big + 1, t('2090-01-01T00:00:00Z'));
    expect(b).toBeGreaterThan(a);
    // The double holds exactly xp · 2^31 plus the tie term floored to 2 s (xp has one bit too many for seconds).
    const tie = 2 ** 31 - 1 - (Date.UTC(2026, 0, 1) - Date.UTC(2025, 0, 1)) / 1000;
    expect(BigInt(a)).toBe(BigInt(big) * 2n ** 31n + BigInt(Math.floor(tie / 2) * 2));
    // Tie-break still works at 2-second resolution.
    expect(encodeScore(big, t('2026-01-01T00:00:00Z'))).toBeGreaterThan(encodeScore(big, t('2026-01-01T00:00:10Z')));
  });

  it('refuses negative or fractional XP', () => {
    expect(() => encodeScore(-1, new Date())).toThrow(RangeError);
    expect(() => encodeScore(1.5, new Date())).toThrow(RangeError);
  });
});
