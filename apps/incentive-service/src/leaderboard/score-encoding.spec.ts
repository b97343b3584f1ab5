import { MAX_XP, boardMember, boardScore, tieOf, userIdOfMember, xpOfScore } from './score-encoding';

const t = (iso: string) => new Date(iso);

interface Entry {
  userId: string;
  xp: number;
  at: Date | null;
}

/** The order a Redis sorted set gives (ZRANGE): score ascending, then member bytes. */
function boardOrder(entries: Entry[]): string[] {
  const stored = entries.map((e) => ({ score: boardScore(e.xp), member: boardMember(e.userId, e.at) }));
  stored.sort((a, b) => a.score - b.score || Buffer.compare(Buffer.from(a.member), Buffer.from(b.member)));
  return stored.map((s) => userIdOfMember(s.member));
}

describe('leaderboard score encoding', () => {
  it('orders by XP first, whenever it was reached', () => {
    expect(boardOrder([
      { userId: 'a', xp: 10, at: t('2025-01-01T00:00:00Z') },
      { userId: 'b', xp: 11, at: t('2090-01-01T00:00:00Z') },
      { userId: 'c', xp: 0, at: null },
      { userId: 'd', xp: 1, at: t('2200-01-01T00:00:00Z') },
    ])).toEqual(['b', 'a', 'd', 'c']);
  });

  it('breaks ties by who reached the XP first, to the millisecond, whatever the user ids', () => {
    const at = t('2026-11-21T07:54:00.123Z');
    const later = new Date(at.getTime() + 5);
    // The earlier user has the larger id, then the smaller one.
    expect(boardOrder([{ userId: 'amy', xp: 500, at: later }, { userId: 'zed', xp: 500, at }])).toEqual(['zed', 'amy']);
    expect(boardOrder([{ userId: 'zed', xp: 500, at: later }, { userId: 'amy', xp: 500, at }])).toEqual(['amy', 'zed']);
    // 1 ms apart, across a second and across a change in the number of digits.
    expect(boardOrder([{ userId: 'a', xp: 7, at: t('2026-01-01T00:00:01.000Z') }, { userId: 'b', xp: 7, at: t('2026-01-01T00:00:00.999Z') }])).toEqual(['b', 'a']);
    expect(boardOrder([{ userId: 'a', xp: 7, at: new Date(1000) }, { userId: 'b', xp: 7, at: new Date(999) }])).toEqual(['b', 'a']);
    // The same millisecond: by user id.
    expect(boardOrder([{ userId: 'b', xp: 7, at }, { userId: 'a', xp: 7, at }])).toEqual(['a', 'b']);
    // Never reached (no XP change yet) sorts before any time.
    expect(boardOrder([{ userId: 'a', xp: 0, at: new Date(1) }, { userId: 'b', xp: 0, at: null }])).toEqual(['b', 'a']);
  });

  it('keeps the tie to the millisecond at every XP up to MAX_XP, and XP exact', () => {
    const at = t('2093-06-30T23:59:59.995Z');
    const later = new Date(at.getTime() + 5);
    for (const xp of [0, 1, 2, 999, 2 ** 22, 123_456_789, 2 ** 40 + 3, 2 ** 52 + 1, MAX_XP - 1, MAX_XP]) {
      const score = boardScore(xp);
      // What Redis is sent and sends back: the decimal string of a double.
      expect(Number.isSafeInteger(score)).toBe(true);
      expect(xpOfScore(String(score))).toBe(xp);
      expect(boardOrder([{ userId: 'z', xp, at }, { userId: 'a', xp, at: later }])).toEqual(['z', 'a']);
      if (xp > 0) expect(boardOrder([{ userId: 'lower', xp: xp - 1, at: new Date(0) }, { userId: 'higher', xp, at: later }])).toEqual(['higher', 'lower']);
    }
    expect(MAX_XP).toBe(2 ** 53 - 1);
    expect(String(boardScore(0))).toBe('0');
  });

  it('puts the time in fixed-width digits and the user id after it, whatever it holds', () => {
    expect(tieOf(t('2026-11-21T07:54:00.123Z'))).toBe('1795247640123');
    expect(tieOf(new Date(5))).toBe('0000000000005');
    expect(tieOf(null)).toBe('0000000000000');
    expect(boardMember('user:1', new Date(5))).toBe('0000000000005:user:1');
    expect(userIdOfMember(boardMember('user:1|x', t('2026-11-21T07:54:00.123Z')))).toBe('user:1|x');
  });

  it('refuses negative, fractional or inexact XP', () => {
    expect(() => boardScore(-1)).toThrow(RangeError);
    expect(() => boardScore(1.5)).toThrow(RangeError);
    expect(() => boardScore(MAX_XP + 1)).toThrow(RangeError);
  });
});
