import { inspect } from 'node:util';
import { ConfigError, loadConfig } from '@ris/config';
import { Keyring, KeyringError, newKeyringEntry, parseKeyring } from './keyring';
import { keyringSetting } from './keyring-setting';

const KEY_A = Buffer.alloc(32, 1).toString('base64');
const KEY_B = Buffer.alloc(32, 2).toString('base64');

describe('keyring', () => {
  it('reads "<id>:<base64>" entries, the first being current', () => {
    const keyring = parseKeyring(`k2:${KEY_B}, k1:${KEY_A}`);
    expect(keyring.currentId).toBe('k2');
    expect(keyring.ids).toEqual(['k2', 'k1']);
    expect(keyring.key('k1')).toEqual(Buffer.alloc(32, 1));
    expect(keyring.has('k3')).toBe(false);
    expect(keyring.key('k3')).toBeUndefined();
  });

  it('accepts url-safe base64 and a missing pad', () => {
    const raw = Buffer.from(Array.from({ length: 32 }, (_, i) => 250 - i));
    const urlSafe = raw.toString('base64url');
    expect(urlSafe).toMatch(/[-_]/);
    expect(parseKeyring(`k:${urlSafe}`).key('k')).toEqual(raw);
    expect(parseKeyring(`k:${raw.toString('base64').replace(/=$/, '')}`).key('k')).toEqual(raw);
  });

  it.each([
    ['', /entry 1 must be <id>:<base64 key>/],
    [`:${KEY_A}`, /entry 1 must be/],
    [KEY_A, /entry 1 must be/],
    ['k1:c2hvcnQ=', /entry 1 \("k1"\): the key must be 32 random bytes/],
    [`k1:${Buffer.alloc(48).toString('base64')}`, /32 random bytes/],
    [`k1:${KEY_A},k1:${KEY_B}`, /"k1" appears twice/],
    [`k1:${KEY_A},`, /entry 2 must be/],
    [`bad id:${KEY_A}`, /key id "bad id"/],
  ])('refuses %j', (text, message) => {
    expect(() => parseKeyring(text)).toThrow(KeyringError);
    expect(() => parseKeyring(text)).toThrow(message);
  });

  it('never shows key material when logged, serialised or refused', () => {
    const keyring = parseKeyring(`k2:${KEY_B},k1:${KEY_A}`);
    const shown = [inspect(keyring), JSON.stringify(keyring), String(Object.keys(keyring)), inspect(keyring, { showHidden: true })].join(' ');
    expect(shown).toContain('k2');
    expect(shown).not.toContain(KEY_A.slice(0, 20));
    expect(shown).not.toContain(KEY_B.slice(0, 20));
    const short = Buffer.alloc(16, 7).toString('base64');
    expect(() => parseKeyring(`k1:${short}`)).toThrow(expect.objectContaining({ message: expect.not.stringContaining(short) }));
  });

  it('copies the key bytes it is given', () => {
    const key = Buffer.alloc(32, 9);
    const keyring = new Keyring([{ id: 'k', key }]);
    key.fill(0);
    expect(keyring.key('k')).toEqual(Buffer.alloc(32, 9));
  });

  it('makes new entries of 32 random bytes', () => {
    const [a, b] = [newKeyringEntry('dev'), newKeyringEntry('dev')];
    expect(a).toMatch(/^dev:[A-Za-z0-9+/]{43}=$/);
    expect(a).not.toBe(b);
    expect(parseKeyring(`${a}`).key('dev')).toHaveLength(32);
    expect(() => newKeyringEntry('no:colons')).toThrow(KeyringError);
  });
});

describe('SECRETS_KEYS setting', () => {
  const shape = { SECRETS_KEYS: keyringSetting() };

  it('becomes a keyring', () => {
    expect(loadConfig(shape, { SECRETS_KEYS: `k1:${KEY_A}` }).SECRETS_KEYS.currentId).toBe('k1');
  });

  it('is required, and says how to make one', () => {
    expect(() => loadConfig(shape, {})).toThrow(ConfigError);
    expect(() => loadConfig(shape, { SECRETS_KEYS: ' ' })).toThrow(/SECRETS_KEYS: required: .*openssl rand -base64 32.*\(not set\)/);
  });

  it('names the setting and the problem without echoing the keys', () => {
    const text = `k1:${KEY_A},k1:${KEY_B}`;
    let error: unknown;
    try {
      loadConfig(shape, { SECRETS_KEYS: text });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain('SECRETS_KEYS: key id "k1" appears twice');
    expect((error as Error).message).not.toContain(KEY_A);
  });
});
