import { randomInt } from 'node:crypto';

/** No look-alikes (0/O, 1/I/L): codes are read aloud and typed at tills. */
export const REWARD_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const GROUPS = 3;
const GROUP_LENGTH = 4;

/**
 * XXXX-XXXX-XXXX from the CSPRNG: 31^12 ≈ 7.9e17 (59 bits), so guessing a
 * live code is hopeless; the unique index catches the astronomically rare
 * collision and the caller draws again.
 */
export function generateRewardCode(): string {
  const groups: string[] = [];
  for (let g = 0; g < GROUPS; g += 1) {
    let group = '';
    for (let i = 0; i < GROUP_LENGTH; i += 1) group += REWARD_CODE_ALPHABET[randomInt(REWARD_CODE_ALPHABET.length)];
    groups.push(group);
  }
  return groups.join('-');
}

/** People type codes in any case, with or without dashes and spaces. */
export function normalizeRewardCode(input: string): string {
  const bare = input.toUpperCase().replace(/[^A-Z0-9]/g, '');
  if (bare.length !== GROUPS * GROUP_LENGTH) return input.trim().toUpperCase();
  return bare.match(new RegExp(`.{${GROUP_LENGTH}}`, 'g'))!.join('-');
}
