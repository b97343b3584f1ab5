import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { KEYRING_SETTING, type Keyring } from './keyring';
import { isSealedSecret, type SealedSecret } from './sealed-secret';

const ALGORITHM = 'aes-256-gcm';
/** 96-bit random nonces, as GCM is specified for; each key encrypts one value, so they never repeat under a key. */
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const DATA_KEY_BYTES = 32;
const FORMAT = 'ris-secret/v1';

/**
 * Where a sealed value belongs, e.g. ['webhook-endpoint-secret', appId,
 * endpointId]: it becomes the value's additional authenticated data, so a
 * ciphertext copied to another record does not decrypt there.
 */
export type SecretContext = readonly string[];

/** The master key a secret names is not in the keyring (removed too early, or another deployment's). */
export class UnknownKeyError extends Error {
  constructor(
    readonly keyId: string,
    known: string[],
  ) {
    super(
      `secret is sealed under master key "${keyId}", which ${KEYRING_SETTING} does not hold (it holds ${known.join(', ')}); ` +
        `add that key back to ${KEYRING_SETTING} (after the current one) to read it`,
    );
    this.name = 'UnknownKeyError';
  }
}

/** A sealed secret that does not open: altered, copied from another record, or a different key under the same id. */
export class SecretDecryptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretDecryptionError';
  }
}

interface GcmOutput {
  nonce: Buffer;
  ciphertext: Buffer;
  tag: Buffer;
}

function encrypt(key: Buffer, plaintext: Buffer, aad: Buffer): GcmOutput {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { nonce, ciphertext, tag: cipher.getAuthTag() };
}

/** null when the tag does not verify. */
function decrypt(key: Buffer, sealed: GcmOutput, aad: Buffer): Buffer | null {
  // A nonce or tag of another length is a forgery attempt (a short tag is weaker), not something to try.
  if (sealed.nonce.length !== NONCE_BYTES || sealed.tag.length !== TAG_BYTES) return null;
  const decipher = createDecipheriv(ALGORITHM, key, sealed.nonce, { authTagLength: TAG_BYTES });
  decipher.setAAD(aad);
  decipher.setAuthTag(sealed.tag);
  try {
    return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]);
  } catch {
    return null;
  }
}

const b64 = (buffer: Buffer) => buffer.toString('base64');
const bytes = (text: string) => Buffer.from(text, 'base64');

function valueAad(context: SecretContext): Buffer {
  if (context.length === 0 || context.some((part) => typeof part !== 'string' || part === '')) {
    // A blank part (an appId missing) would bind the value to less than its record.
    throw new Error('a secret context is a list of non-empty strings');
  }
  // JSON keeps the parts apart: ['a:b','c'] and ['a','b:c'] differ.
  return Buffer.from(JSON.stringify([FORMAT, ...context]));
}

const wrapAad = (keyId: string) => Buffer.from(`${FORMAT}/data-key/${keyId}`);

/**
 * Envelope encryption of secrets the services must read back (webhook
 * signing secrets, stored responses that carry them), with AES-256-GCM:
 *
 * - each value gets a fresh random data key; the value is encrypted under
 *   it, with its record's context as additional authenticated data;
 * - the data key is encrypted (wrapped) under the current master key of
 *   the keyring, and the master key's id is stored beside it.
 *
 * Rotating the master key therefore re-encrypts 32-byte data keys only
 * (rewrap), never the values, and needs no context; old master keys keep
 * opening what they wrapped until the keyring drops them.
 */
export class EnvelopeCipher {
  constructor(readonly keyring: Keyring) {}

  get currentKeyId(): string {
    return this.keyring.currentId;
  }

  seal(plaintext: string | Uint8Array, context: SecretContext): SealedSecret {
    const aad = valueAad(context);
    const dataKey = randomBytes(DATA_KEY_BYTES);
    try {
      const value = encrypt(dataKey, Buffer.from(plaintext), aad);
      return { v: 1, ...this.wrap(dataKey), nonce: b64(value.nonce), ciphertext: b64(value.ciphertext), tag: b64(value.tag) };
    } finally {
      dataKey.fill(0);
    }
  }

  open(sealed: SealedSecret, context: SecretContext): Buffer {
    const aad = valueAad(context);
    const dataKey = this.unwrap(sealed);
    try {
      const value = decrypt(dataKey, { nonce: bytes(sealed.nonce), ciphertext: bytes(sealed.ciphertext), tag: bytes(sealed.tag) }, aad);
      if (!value) throw new SecretDecryptionError('secret does not decrypt for this record: it was altered or copied from another record');
      return value;
    } finally {
      dataKey.fill(0);
    }
  }

  openText(sealed: SealedSecret, context: SecretContext): string {
    return this.open(sealed, context).toString('utf8');
  }

  /** Sealed under the current master key (nothing to rewrap)? */
  isCurrent(sealed: SealedSecret): boolean {
    return sealed.keyId === this.keyring.currentId;
  }

  /**
   * The same secret with its data key wrapped under the current master key
   * (the value's ciphertext is kept); the very same object if it already is.
   */
  rewrap(sealed: SealedSecret): SealedSecret {
    if (this.isCurrent(sealed)) return sealed;
    const dataKey = this.unwrap(sealed);
    try {
      return { ...sealed, ...this.wrap(dataKey) };
    } finally {
      dataKey.fill(0);
    }
  }

  private wrap(dataKey: Buffer): Pick<SealedSecret, 'keyId' | 'wrappedKey' | 'wrapNonce' | 'wrapTag'> {
    const keyId = this.keyring.currentId;
    const wrapped = encrypt(this.keyring.key(keyId)!, dataKey, wrapAad(keyId));
    return { keyId, wrappedKey: b64(wrapped.ciphertext), wrapNonce: b64(wrapped.nonce), wrapTag: b64(wrapped.tag) };
  }

  private unwrap(sealed: SealedSecret): Buffer {
    if (!isSealedSecret(sealed)) throw new SecretDecryptionError('not a sealed secret (unknown format)');
    const masterKey = this.keyring.key(sealed.keyId);
    if (!masterKey) throw new UnknownKeyError(sealed.keyId, this.keyring.ids);
    const dataKey = decrypt(
      masterKey,
      { nonce: bytes(sealed.wrapNonce), ciphertext: bytes(sealed.wrappedKey), tag: bytes(sealed.wrapTag) },
      wrapAad(sealed.keyId),
    );
    if (!dataKey || dataKey.length !== DATA_KEY_BYTES) {
      throw new SecretDecryptionError(
        `the data key does not open under master key "${sealed.keyId}": the record was altered, or ${KEYRING_SETTING} ` +
          `holds a different key under that id than the one it was sealed with`,
      );
    }
    return dataKey;
  }
}
