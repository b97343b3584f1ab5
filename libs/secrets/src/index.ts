export { DerivedKeys } from './derived-keys';
export { EnvelopeCipher, SecretDecryptionError, UnknownKeyError, type SecretContext } from './envelope-cipher';
export { KEYRING_SETTING, Keyring, KeyringError, MASTER_KEY_BYTES, newKeyringEntry, parseKeyring } from './keyring';
export { keyringSetting } from './keyring-setting';
export { isSealedSecret, type SealedSecret } from './sealed-secret';
