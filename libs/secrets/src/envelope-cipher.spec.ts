import { EnvelopeCipher, SecretDecryptionError, UnknownKeyError } from './envelope-cipher';
import { newKeyringEntry, parseKeyring } from './keyring';
import type { SealedSecret } from './sealed-secret';

const [K1, K2, K3] = ['k1', 'k2', 'k3'].map((id) => newKeyringEntry(id));
const cipherOf = (...entries: string[]) => new EnvelopeCipher(parseKeyring(entries.join(',')));
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const CONTEXT = ['webhook-endpoint-secret', 'app_1', 'whe_1'];

/** Flips one bit of a base64 field. */
function flip(sealed: SealedSecret, field: keyof Omit<SealedSecret, 'v' | 'keyId'>): SealedSecret {
  const bytes = Buffer.from(sealed[field], 'base64');
  bytes[0] ^= 1;
  return { ...sealed, [field]: bytes.toString('base64') };
}

describe('EnvelopeCipher', () => {
  it('round-trips a value, sealed under the current key with its own data key and nonces', () => {
    const cipher = cipherOf(K1);
    const sealed = cipher.seal(SECRET, CONTEXT);
    expect(sealed.keyId).toBe('k1');
    expect(cipher.openText(sealed, CONTEXT)).toBe(SECRET);
    expect(Buffer.from(sealed.nonce, 'base64')).toHaveLength(12);
    expect(Buffer.from(sealed.tag, 'base64')).toHaveLength(16);
    expect(Buffer.from(sealed.wrappedKey, 'base64')).toHaveLength(32);
    const again = cipher.seal(SECRET, CONTEXT);
    expect(again.ciphertext).not.toBe(sealed.ciphertext);
    expect(again.wrappedKey).not.toBe(sealed.wrappedKey);
    expect(again.nonce).not.toBe(sealed.nonce);
    expect(cipher.open(cipher.seal(Buffer.from([0, 255, 1]), CONTEXT), CONTEXT)).toEqual(Buffer.from([0, 255, 1]));
  });

  it('keeps no trace of the value or its key bytes in what it stores', () => {
    const sealed = cipherOf(K1).seal(SECRET, CONTEXT);
    const stored = JSON.stringify(sealed);
    const key = SECRET.slice('whsec_'.length);
    for (const form of [SECRET, key, Buffer.from(SECRET).toString('base64'), Buffer.from(key, 'base64').toString('hex')]) {
      expect(stored).not.toContain(form);
    }
  });

  it('does not open for another record (wrong additional authenticated data)', () => {
    const cipher = cipherOf(K1);
    const sealed = cipher.seal(SECRET, CONTEXT);
    for (const other of [
      ['webhook-endpoint-secret', 'app_1', 'whe_2'],
      ['webhook-endpoint-secret', 'app_2', 'whe_1'],
      ['another-purpose', 'app_1', 'whe_1'],
      // The parts are kept apart: joining them differently is another context.
      ['webhook-endpoint-secret', 'app_1whe_1'],
    ]) {
      expect(() => cipher.open(sealed, other)).toThrow(SecretDecryptionError);
      expect(() => cipher.open(sealed, other)).toThrow(/another record/);
    }
    expect(() => cipher.seal(SECRET, ['webhook-endpoint-secret', '', 'whe_1'])).toThrow(/non-empty/);
    expect(() => cipher.seal(SECRET, [])).toThrow(/non-empty/);
  });

  it('refuses anything tampered with', () => {
    const cipher = cipherOf(K1);
    const sealed = cipher.seal(SECRET, CONTEXT);
    for (const field of ['ciphertext', 'tag', 'nonce'] as const) {
      expect(() => cipher.open(flip(sealed, field), CONTEXT)).toThrow(/altered or copied/);
    }
    for (const field of ['wrappedKey', 'wrapTag', 'wrapNonce'] as const) {
      expect(() => cipher.open(flip(sealed, field), CONTEXT)).toThrow(/data key does not open under master key "k1"/);
    }
    // A truncated tag (weaker authentication) is refused, not checked on fewer bytes.
    const shortTag = { ...sealed, tag: Buffer.from(sealed.tag, 'base64').subarray(0, 12).toString('base64') };
    expect(() => cipher.open(shortTag, CONTEXT)).toThrow(SecretDecryptionError);
    // Another data key swapped in: its value does not decrypt under it.
    const other = cipher.seal(SECRET, CONTEXT);
    expect(() => cipher.open({ ...sealed, wrappedKey: other.wrappedKey, wrapNonce: other.wrapNonce, wrapTag: other.wrapTag }, CONTEXT)).toThrow(
      SecretDecryptionError,
    );
    expect(() => cipher.open({ ...sealed, v: 2 } as unknown as SealedSecret, CONTEXT)).toThrow(/unknown format/);
  });

  it('names an unknown master key and the keys it has', () => {
    const sealed = cipherOf(K3).seal(SECRET, CONTEXT);
    const cipher = cipherOf(K2, K1);
    expect(() => cipher.open(sealed, CONTEXT)).toThrow(UnknownKeyError);
    expect(() => cipher.open(sealed, CONTEXT)).toThrow('secret is sealed under master key "k3", which SECRETS_KEYS does not hold (it holds k2, k1)');
    expect(() => cipher.rewrap(sealed)).toThrow(UnknownKeyError);
  });

  it('tells a different key under the same id from an unknown one', () => {
    const sealed = cipherOf(K1).seal(SECRET, CONTEXT);
    expect(() => cipherOf(newKeyringEntry('k1')).open(sealed, CONTEXT)).toThrow(/holds a different key under that id/);
  });

  it('rotates: old keys still open, rewrap moves the data key to the current key and keeps the value', () => {
    const before = cipherOf(K1).seal(SECRET, CONTEXT);
    const rotated = cipherOf(K2, K1);
    expect(rotated.isCurrent(before)).toBe(false);
    expect(rotated.openText(before, CONTEXT)).toBe(SECRET);
    // New secrets go under the new current key.
    expect(rotated.seal(SECRET, CONTEXT).keyId).toBe('k2');

    const moved = rotated.rewrap(before);
    expect(moved.keyId).toBe('k2');
    expect(rotated.isCurrent(moved)).toBe(true);
    expect(moved.ciphertext).toBe(before.ciphertext);
    expect(moved.nonce).toBe(before.nonce);
    expect(moved.wrappedKey).not.toBe(before.wrappedKey);
    expect(rotated.rewrap(moved)).toBe(moved);
    // Once everything is rewrapped, the old key can go.
    const afterRemoval = cipherOf(K2);
    expect(afterRemoval.openText(moved, CONTEXT)).toBe(SECRET);
    expect(() => afterRemoval.openText(before, CONTEXT)).toThrow(UnknownKeyError);
    // A relabelled key id does not open: the wrap is bound to its key id.
    expect(() => afterRemoval.open({ ...before, keyId: 'k2' }, CONTEXT)).toThrow(SecretDecryptionError);
  });
});
