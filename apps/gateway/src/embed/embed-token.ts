import { createHmac, timingSafeEqual } from 'node:crypto';
import { DerivedKeys, type Keyring } from '@ris/secrets';

/** What an embed token allows: reading one user's referral widget in one campaign of one app, from these page origins, until then. */
export interface EmbedClaims {
  appId: string;
  userId: string;
  campaignId: string;
  /** Origins of the pages that may frame the widget (its CSP frame-ancestors); empty: only this origin. */
  origins: string[];
  expiresAt: Date;
}

export type EmbedTokenCheck = { kind: 'valid'; claims: EmbedClaims } | { kind: 'expired'; claims: EmbedClaims } | { kind: 'invalid' };

const PREFIX = 'et1.';
/** Tells an embed token from an API key (rk_live_…) or anything else at a glance. */
export const looksLikeEmbedToken = (token: string) => token.startsWith(PREFIX);

interface Payload {
  /** Key id of SECRETS_KEYS the MAC key is derived from. */
  k: string;
  a: string;
  u: string;
  c: string;
  o: string[];
  /** Expiry, in seconds since the epoch. */
  x: number;
}

const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');

function isPayload(value: unknown): value is Payload {
  const p = value as Partial<Payload> | null;
  return (
    typeof p === 'object' && p !== null &&
    typeof p.k === 'string' && typeof p.a === 'string' && typeof p.u === 'string' && typeof p.c === 'string' &&
    isStringArray(p.o) && typeof p.x === 'number' && Number.isFinite(p.x)
  );
}

/**
 * Short-lived, signed tokens of the referral widget (POST /api/v1/embed-tokens):
 * `et1.<claims, base64url JSON>.<HMAC-SHA256, base64url>`. Nothing is
 * stored: the MAC key is derived (HKDF) from a master key of SECRETS_KEYS,
 * named in the token, so a rotation leaves the tokens already given valid
 * until they expire (minutes) and a key leaving the keyring ends them.
 * A token is no credential anywhere but the widget's read endpoints: it has
 * not the shape of an API key, and nothing else looks it up.
 */
export class EmbedTokens {
  private readonly macKeys: DerivedKeys;

  constructor(keyring: Keyring) {
    this.macKeys = new DerivedKeys(keyring, 'ris embed token v1');
  }

  private mac(key: Buffer, body: string): Buffer {
    return createHmac('sha256', key).update(`${PREFIX}${body}`).digest();
  }

  issue(claims: EmbedClaims): string {
    const kid = this.macKeys.currentId;
    const payload: Payload = {
      k: kid,
      a: claims.appId,
      u: claims.userId,
      c: claims.campaignId,
      o: claims.origins,
      x: Math.floor(claims.expiresAt.getTime() / 1000),
    };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${PREFIX}${body}.${this.mac(this.macKeys.key(kid)!, body).toString('base64url')}`;
  }

  /** Whether the token is one of ours, unchanged, and still valid; an expired one keeps its claims (its widget frame may show why). */
  check(token: string, now = new Date()): EmbedTokenCheck {
    if (!looksLikeEmbedToken(token) || token.length > 8192) return { kind: 'invalid' };
    const [body, mac, ...rest] = token.slice(PREFIX.length).split('.');
    if (!body || !mac || rest.length > 0) return { kind: 'invalid' };
    let payload: unknown;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      return { kind: 'invalid' };
    }
    if (!isPayload(payload)) return { kind: 'invalid' };
    const key = this.macKeys.key(payload.k);
    if (!key) return { kind: 'invalid' };
    const expected = this.mac(key, body);
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { kind: 'invalid' };
    const claims: EmbedClaims = { appId: payload.a, userId: payload.u, campaignId: payload.c, origins: payload.o, expiresAt: new Date(payload.x * 1000) };
    return claims.expiresAt.getTime() <= now.getTime() ? { kind: 'expired', claims } : { kind: 'valid', claims };
  }
}
