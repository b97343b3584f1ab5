import { CODE_ALPHABET } from '@ris/codes';
import { generateMarketplaceCode, normalizeMarketplaceCode } from './marketplace-code';

describe('marketplace codes', () => {
  it('look like MKT-XXXX-XXXX-XXXX over an alphabet without look-alikes', () => {
    for (let i = 0; i < 200; i += 1) expect(generateMarketplaceCode()).toMatch(/^MKT-[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{4}(-[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{4}){2}$/);
    for (const lookAlike of ['0', 'O', '1', 'I', 'L']) expect(CODE_ALPHABET).not.toContain(lookAlike);
  });

  it('do not repeat, and use the whole alphabet about evenly', () => {
    const codes = Array.from({ length: 20_000 }, generateMarketplaceCode);
    expect(new Set(codes).size).toBe(codes.length);
    const counts = new Map<string, number>();
    for (const code of codes) for (const ch of code.slice(4).replace(/-/g, '')) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(CODE_ALPHABET.length);
    const expected = (codes.length * 12) / CODE_ALPHABET.length;
    for (const count of counts.values()) expect(Math.abs(count - expected) / expected).toBeLessThan(0.1);
  });

  it('are recognised however they are typed', () => {
    const code = generateMarketplaceCode();
    expect(normalizeMarketplaceCode(code)).toBe(code);
    expect(normalizeMarketplaceCode(code.toLowerCase())).toBe(code);
    expect(normalizeMarketplaceCode(code.replace(/-/g, ''))).toBe(code);
    expect(normalizeMarketplaceCode(` ${code.replace(/-/g, ' ')} `)).toBe(code);
  });

  it('are not confused with user ids or other codes', () => {
    expect(normalizeMarketplaceCode('user-42')).toBeNull();
    expect(normalizeMarketplaceCode('MKT-ABCD-EFGH')).toBeNull();
    expect(normalizeMarketplaceCode('MKT-ABCD-EFGH-JKM0')).toBeNull();
    expect(normalizeMarketplaceCode('ABCD-EFGH-JKMN')).toBeNull();
  });
});
