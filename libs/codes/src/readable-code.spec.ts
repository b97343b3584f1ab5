import { CODE_ALPHABET, drawCode, groupedCode, type CodeFormat } from './readable-code';

describe('readable codes', () => {
  const plain: CodeFormat = { prefix: '', groups: 3, groupLength: 4 };
  const prefixed: CodeFormat = { prefix: 'MKT-', groups: 3, groupLength: 4 };

  it('are groups of the alphabet without look-alikes, after the prefix', () => {
    for (let i = 0; i < 2000; i += 1) {
      expect(drawCode(plain)).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
      expect(drawCode(prefixed)).toMatch(/^MKT-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    }
    expect(CODE_ALPHABET).not.toMatch(/[01OIL]/);
    expect(drawCode({ prefix: '', groups: 2, groupLength: 3 })).toMatch(/^[A-Z2-9]{3}-[A-Z2-9]{3}$/);
  });

  it('do not repeat and use the whole alphabet', () => {
    const codes = new Set(Array.from({ length: 5000 }, () => drawCode(plain)));
    expect(codes.size).toBe(5000);
    expect([...new Set([...codes].join('').replace(/-/g, ''))].sort().join('')).toBe([...CODE_ALPHABET].sort().join(''));
  });

  it('write bare characters in the format', () => {
    expect(groupedCode(plain, 'ABCDEFGHJKMN')).toBe('ABCD-EFGH-JKMN');
    expect(groupedCode(prefixed, 'ABCDEFGHJKMN')).toBe('MKT-ABCD-EFGH-JKMN');
  });
});
