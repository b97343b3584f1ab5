import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { randomBase62 } from '@ris/mongo';

// scrypt (memory-hard) with N = 2^15, r = 8, p = 1: 32 MiB and about 50-100 ms
// per hash, so a stolen database costs an attacker that much per guess.
// The parameters are stored with each hash (scrypt$N$r$p$salt$hash), so they
// can be raised later without invalidating the hashes already stored.
const N = 2 ** 15;
const R = 8;
const P = 1;
const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** The hash's working memory is 128·N·r bytes (32 MiB); Node's default cap is exactly that, without room for its overhead. */
const MAX_MEMORY = 128 * N * R * 2;

/** Shortest password an operator may choose. */
export const MIN_PASSWORD_LENGTH = 12;
/** Longest password taken (scrypt takes any length; this bounds the work a request can ask for). */
export const MAX_PASSWORD_LENGTH = 200;

const derive = (password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const options: ScryptOptions = { N: n, r, p, maxmem: Math.max(MAX_MEMORY, 128 * n * r + 1024 * 1024) };
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (err, key) => (err ? reject(err) : resolve(key)));
  });

/** The stored form of a password: `scrypt$N$r$p$<salt base64>$<hash base64>`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, N, R, P);
  return ['scrypt', N, R, P, salt.toString('base64'), key.toString('base64')].join('$');
}

const STORED = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/;

/** Whether `password` is the one `stored` was made from (compared in constant time). A malformed stored value never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = STORED.exec(stored);
  if (!match) return false;
  const [n, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // Parameters far beyond what this code writes are not ours: refuse rather than let a stored value ask for gigabytes.
  if (n < 2 || 128 * n * r > 4 * 128 * N * R || p < 1 || p > 4) return false;
  const expected = Buffer.from(match[5], 'base64');
  const key = await derive(password, Buffer.from(match[4], 'base64'), n, r, p);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

let dummy: Promise<string> | undefined;

/**
 * Spends the time of one verification and answers false: a sign-in with an
 * unknown email costs what a wrong password costs, so timing does not tell
 * which emails have accounts.
 */
export async function verifyNothing(password: string): Promise<false> {
  dummy ??= hashPassword(randomBase62(24));
  await verifyPassword(password, await dummy);
  return false;
}

/** A password made for an operator (invited, created or reset without one): 24 base62 characters, about 143 bits. */
export const generatePassword = (): string => randomBase62(24);
