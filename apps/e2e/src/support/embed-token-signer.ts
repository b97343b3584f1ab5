import { createHmac, hkdfSync } from 'node:crypto';

/**
 * Signs a referral widget token the way the gateway does (its wire format,
 * written again here from docs/widget.md, not imported): for tokens no API
 * call can give, an expired one or one of another deployment. `secretsKeys`
 * is a SECRETS_KEYS value; the token is signed with its first key.
 */
export function signEmbedToken(
  secretsKeys: string,
  claims: { appId: string; userId: string; campaignId: string; origins?: string[]; expiresAt: Date },
): string {
  const [kid, base64] = secretsKeys.split(',')[0].split(':');
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(base64, 'base64'), Buffer.alloc(0), 'ris embed token v1', 32));
  const payload = { k: kid, a: claims.appId, u: claims.userId, c: claims.campaignId, o: claims.origins ?? [], x: Math.floor(claims.expiresAt.getTime() / 1000) };
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `et1.${body}.${createHmac('sha256', key).update(`et1.${body}`).digest('base64url')}`;
}

/** The e2e stack's SECRETS_KEYS (set by the global set-up). */
export function stackSecretsKeys(): string {
  const keys = process.env.E2E_SECRETS_KEYS;
  if (!keys) throw new Error('E2E_SECRETS_KEYS is not set: run end-to-end tests through the e2e project');
  return keys;
}
