import { randomInt } from 'node:crypto';

/** No look-alikes (0/O, 1/I/L): codes are read aloud and typed at tills. */
export const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** How a kind of code looks: e.g. XXXX-XXXX-XXXX (a reward's), MKT-XXXX-XXXX-XXXX (a marketplace redemption's). */
export interface CodeFormat {
  /** Written before the groups, e.g. 'MKT-'; '' for none. */
  prefix: string;
  groups: number;
  groupLength: number;
}

/**
 * A fresh code from the CSPRNG: 3 groups of 4 are 31^12 ≈ 7.9e17 (59
 * bits), so guessing a live code is hopeless; the unique index it is
 * stored under catches the astronomically rare collision and the caller
 * draws again.
 */
export function drawCode(format: CodeFormat): string {
  const groups: string[] = [];
  for (let g = 0; g < format.groups; g += 1) {
    let group = '';
    for (let i = 0; i < format.groupLength; i += 1) group += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
    groups.push(group);
  }
  return format.prefix + groups.join('-');
}

/**
 * A code's characters without prefix or dashes (groups × groupLength of
 * them, upper case) written in the format: what people typed, however
 * they grouped it, as it is stored.
 */
export function groupedCode(format: CodeFormat, bare: string): string {
  return format.prefix + bare.match(new RegExp(`.{1,${format.groupLength}}`, 'g'))!.join('-');
}
