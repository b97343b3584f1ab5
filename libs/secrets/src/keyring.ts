import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';

/** The setting a keyring is read from; errors name it so an operator knows what to fix. */
export const KEYRING_SETTING = 'SECRETS_KEYS';

/** AES-256: every master key is 32 bytes. */
export const MASTER_KEY_BYTES = 32;

const KEY_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/;
// 32 bytes are 43 base64 characters and one "=" of padding (optional); url-safe letters accepted too.
const KEY_TEXT = /^[A-Za-z0-9+/_-]{43}=?$/;

/** A keyring that cannot be used; the message never contains key material. */
export class KeyringError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyringError';
  }
}

/**
 * The master keys (key-encryption keys) that protect stored secrets, by
 * id. The first is current: new secrets are sealed under it. Every key
 * opens what was sealed under it, so after a rotation the old key stays
 * until nothing is sealed under it any more.
 *
 * The key bytes live in a private field: a logged or serialised keyring
 * shows its ids only.
 */
export class Keyring {
  readonly #keys: ReadonlyMap<string, Buffer>;
  readonly currentId: string;

  constructor(keys: ReadonlyArray<{ id: string; key: Uint8Array }>) {
    if (keys.length === 0) throw new KeyringError('a keyring needs at least one key');
    const byId = new Map<string, Buffer>();
    for (const { id, key } of keys) {
      if (!KEY_ID.test(id)) throw new KeyringError(`key id "${id}" must be 1 to 32 letters, digits, "_", "-" or "." (starting with a letter or digit)`);
      if (byId.has(id)) throw new KeyringError(`key id "${id}" appears twice`);
      if (key.length !== MASTER_KEY_BYTES) throw new KeyringError(`key "${id}" must be ${MASTER_KEY_BYTES} bytes, got ${key.length}`);
      byId.set(id, Buffer.from(key));
    }
    this.#keys = byId;
    this.currentId = keys[0].id;
  }

  /** Every key id, the current one first. */
  get ids(): string[] {
    return [...this.#keys.keys()];
  }

  has(id: string): boolean {
    return this.#keys.has(id);
  }

  /** The key of this id, or undefined when the keyring does not hold it. */
  key(id: string): Buffer | undefined {
    return this.#keys.get(id);
  }

  toJSON(): { currentId: string; ids: string[] } {
    return { currentId: this.currentId, ids: this.ids };
  }

  [inspect.custom](): string {
    return `Keyring { current: ${this.currentId}, ids: ${this.ids.join(', ')} }`;
  }
}

/**
 * Reads "<id>:<base64 of 32 bytes>,<id>:<base64>,…", current key first
 * (the SECRETS_KEYS setting). Refuses anything doubtful: a key of another
 * length, a repeated id, an empty entry.
 */
export function parseKeyring(text: string): Keyring {
  const entries = text.split(',').map((entry) => entry.trim());
  const keys = entries.map((entry, index) => {
    const where = `entry ${index + 1}`;
    const colon = entry.indexOf(':');
    if (colon <= 0) throw new KeyringError(`${where} must be <id>:<base64 key>, e.g. k1:$(openssl rand -base64 32)`);
    const id = entry.slice(0, colon).trim();
    const keyText = entry.slice(colon + 1).trim();
    if (!KEY_TEXT.test(keyText)) {
      throw new KeyringError(`${where} ("${id}"): the key must be ${MASTER_KEY_BYTES} random bytes in base64 (openssl rand -base64 32)`);
    }
    return { id, key: Buffer.from(keyText.replace(/-/g, '+').replace(/_/g, '/'), 'base64') };
  });
  return new Keyring(keys);
}

/** A new "<id>:<base64 of 32 random bytes>" entry (development keyrings, tests, rotation). */
export function newKeyringEntry(id: string): string {
  if (!KEY_ID.test(id)) throw new KeyringError(`key id "${id}" must be 1 to 32 letters, digits, "_", "-" or "."`);
  return `${id}:${randomBytes(MASTER_KEY_BYTES).toString('base64')}`;
}
