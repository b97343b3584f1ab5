import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { DerivedKeys, type Keyring } from '@ris/secrets';
import { cookieValue } from '../../http/request-cookie';

export const DEVICE_COOKIE = 'ris_known_device';
const PREFIX = 'kd1';
/** A browser stays known this long after its last sign-in. */
const DEVICE_LIFETIME_MS = 365 * 24 * 60 * 60_000;

const accountOf = (email: string) => createHash('sha256').update(email.toLowerCase()).digest('base64url');

/**
 * Browsers an operator has signed in from (OWASP's "device cookies"): a
 * successful sign-in leaves a cookie `kd1.<key id>.<device id>.<MAC of
 * the device and the account>`, signed with a key derived (HKDF) from
 * SECRETS_KEYS, so nothing is stored and nobody can make one for an account
 * they have not signed in to. The sign-in throttle counts a known device's
 * failures on their own, so strangers' failures against the account, or
 * from the owner's own network, never keep that browser out.
 */
export class KnownDevices {
  private readonly macKeys: DerivedKeys;

  constructor(keyring: Keyring) {
    this.macKeys = new DerivedKeys(keyring, 'ris known device v1');
  }

  private mac(key: Buffer, device: string, email: string): Buffer {
    return createHmac('sha256', key).update(`${PREFIX}.${device}.${accountOf(email)}`).digest();
  }

  /** The device id the request's cookie proves for this account, or null (no cookie, another account's, or forged). */
  deviceOf(req: Request, email: string): string | null {
    const value = cookieValue(req, DEVICE_COOKIE);
    if (!value || value.length > 200) return null;
    const [prefix, kid, device, mac, ...rest] = value.split('.');
    if (prefix !== PREFIX || !kid || !device || !mac || rest.length > 0) return null;
    const key = this.macKeys.key(kid);
    if (!key) return null;
    const expected = this.mac(key, device, email);
    const given = Buffer.from(mac, 'base64url');
    return given.length === expected.length && timingSafeEqual(given, expected) ? device : null;
  }

  /** After a successful sign-in: this browser is known to the account from now on (its device id kept if it had one). */
  remember(req: Request, res: Response, email: string, device: string | null): void {
    const id = device ?? randomBytes(12).toString('base64url');
    const kid = this.macKeys.currentId;
    const value = `${PREFIX}.${kid}.${id}.${this.mac(this.macKeys.key(kid)!, id, email).toString('base64url')}`;
    // Only the sign-in reads it: sent nowhere else.
    res.cookie(DEVICE_COOKIE, value, { httpOnly: true, sameSite: 'strict', secure: req.secure, path: '/console/v1/session', maxAge: DEVICE_LIFETIME_MS });
  }
}
