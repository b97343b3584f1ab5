import { hkdfSync } from 'node:crypto';
import type { Keyring } from './keyring';

/**
 * Keys for one purpose (a MAC of embed tokens, of known-device cookies…)
 * derived with HKDF from the keyring's master keys, by key id, so a value
 * names the key id it was made with: a rotation leaves values made before
 * it valid while their master key stays in the keyring. Derived once per
 * id; nothing is stored.
 */
export class DerivedKeys {
  private readonly keys = new Map<string, Buffer>();

  constructor(
    private readonly keyring: Keyring,
    /** HKDF's info: one per purpose, so no two purposes share a key. */
    private readonly purpose: string,
  ) {}

  get currentId(): string {
    return this.keyring.currentId;
  }

  /** The purpose's key under master key `id`, or undefined when the keyring does not hold it. */
  key(id: string): Buffer | undefined {
    let key = this.keys.get(id);
    if (!key) {
      const master = this.keyring.key(id);
      if (!master) return undefined;
      key = Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), this.purpose, 32));
      this.keys.set(id, key);
    }
    return key;
  }
}
