import { randomInt } from 'node:crypto';

/** No look-alikes (0/O, 1/I/L): codes are read aloud and typed at tills. */
export const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE_PREFIX = 'MKT-';
const GROUPS = 3;
const GROUP_LENGTH = 4;

/**
 * MKT-XXXX-XXXX-XXXX from the CSPRNG: 31^12 ≈ 7.9e17 (59 bits), so a live
 * code cannot be guessed; the unique index catches the astronomically rare
 * collision and the caller draws again.
 */
export function generateMarketplaceCode(): string {
  const groups: string[] = [];
  for (let g = 0; g < GROUPS; g += 1) {
    let group = '';
    for (let i = 0; i < GROUP_LENGTH; i += 1) group += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
    groups.push(group);
  }
  return CODE_PREFIX + groups.join('-');
}

const CODE_SHAPE = new RegExp(`^MKT([${CODE_ALPHABET}]{${GROUPS * GROUP_LENGTH}})$`);

/**
 * The canonical form of something typed as a marketplace code (any case,
 * with or without dashes and spaces), or null when it cannot be one.
 */
export function normalizeMarketplaceCode(input: string): string | null {
  const match = CODE_SHAPE.exec(input.toUpperCase().replace(/[\s-]/g, ''));
  if (!match) return null;
  return CODE_PREFIX + match[1].match(new RegExp(`.{${GROUP_LENGTH}}`, 'g'))!.join('-');
}
