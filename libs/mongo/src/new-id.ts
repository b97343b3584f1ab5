import { randomBytes, randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A random byte's base62 character, or '' for the bytes rejection sampling drops (it keeps the characters unbiased). */
const base62Char = (byte: number): string => (byte < 248 ? ALPHABET[byte % 62] : '');

/** Random base62 string from the CSPRNG. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) if (out.length < length) out += base62Char(byte);
  }
  return out;
}

/**
 * Random bytes for ids, drawn from the CSPRNG 4 kB at a time (as Node's
 * randomUUID does): a call per id cost a busy path more than the id is
 * worth (a webhook delivery makes two). Ids are not secrets; keys and
 * passwords use randomBase62, which holds no bytes ahead.
 */
const idBytes = Buffer.alloc(4096);
let idBytesUsed = idBytes.length;

function idBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    if (idBytesUsed === idBytes.length) {
      randomFillSync(idBytes);
      idBytesUsed = 0;
    }
    out += base62Char(idBytes[idBytesUsed++]);
  }
  return out;
}

/** Opaque, prefixed ids such as cmp_3kT9…: the prefix tells a support engineer what it is. */
export function newId(prefix: string): string {
  return `${prefix}_${idBase62(20)}`;
}

/**
 * The id of what a request creates: derived from its operation key (the
 * gateway's, from the request's Idempotency-Key) when it has one, so every
 * try of the request names the same document; a new id otherwise.
 */
export function idFromOperation(prefix: string, operationKey: string | null | undefined): string {
  return operationKey ? `${prefix}_${operationKey}` : newId(prefix);
}
