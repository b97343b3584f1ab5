import { randomInt } from 'node:crypto';

/** Upper case without look-alikes: no 0/O, 1/I/L (docs/product-decisions.md §4.1). */
export const REFERRAL_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const REFERRAL_CODE_LENGTH = 8;

/** 31^8 ≈ 8.5e11 codes: collisions are rare and retried by the caller. */
export function generateReferralCode(): string {
  let code = '';
  for (let i = 0; i < REFERRAL_CODE_LENGTH; i += 1) code += REFERRAL_CODE_ALPHABET[randomInt(REFERRAL_CODE_ALPHABET.length)];
  return code;
}

/** Codes are matched case-insensitively: people type them. */
export function normalizeReferralCode(input: string): string {
  return input.trim().toUpperCase();
}
