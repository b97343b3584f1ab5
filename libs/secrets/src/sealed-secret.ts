/**
 * A secret encrypted at rest (envelope encryption, see EnvelopeCipher): the
 * value under a data key of its own, the data key under a master key. It
 * is stored as this plain object (base64 strings), so any document can
 * hold it and a query can find the records of one master key by `keyId`.
 */
export interface SealedSecret {
  /** Format version. */
  v: 1;
  /** Id of the master key (in SECRETS_KEYS) that wraps the data key. */
  keyId: string;
  /** The data key (32 bytes), AES-256-GCM under the master key. */
  wrappedKey: string;
  wrapNonce: string;
  wrapTag: string;
  /** The value, AES-256-GCM under the data key, bound to its record by the additional authenticated data. */
  nonce: string;
  ciphertext: string;
  tag: string;
}

const FIELDS = ['keyId', 'wrappedKey', 'wrapNonce', 'wrapTag', 'nonce', 'ciphertext', 'tag'] as const;

/** True for what looks like a SealedSecret (the crypto decides whether it is a good one). */
export function isSealedSecret(value: unknown): value is SealedSecret {
  if (!value || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  return record.v === 1 && FIELDS.every((field) => typeof record[field] === 'string');
}
