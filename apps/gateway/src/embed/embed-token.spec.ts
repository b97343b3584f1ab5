import { newKeyringEntry, parseKeyring } from '@ris/secrets';
import { EmbedTokens, looksLikeEmbedToken } from './embed-token';

const claims = (minutes: number) => ({
  appId: 'app_1',
  userId: 'ann@example.com',
  campaignId: 'cmp_1',
  origins: ['https://shop.example.com'],
  expiresAt: new Date(Math.floor(Date.now() / 1000) * 1000 + minutes * 60_000),
});

describe('embed tokens', () => {
  const k1 = newKeyringEntry('k1');
  const tokens = new EmbedTokens(parseKeyring(k1));

  it('checks what it issued, with its claims, and never looks like an API key', () => {
    const issued = claims(15);
    const token = tokens.issue(issued);
    expect(looksLikeEmbedToken(token)).toBe(true);
    expect(token.startsWith('rk_live_')).toBe(false);
    expect(tokens.check(token)).toEqual({ kind: 'valid', claims: issued });
  });

  it('tells an expired token (its claims still signed) from a valid one', () => {
    const token = tokens.issue(claims(1));
    expect(tokens.check(token, new Date(Date.now() + 61_000)).kind).toBe('expired');
  });

  it('refuses an altered claim, another signature, another deployment and garbage', () => {
    const token = tokens.issue(claims(15));
    const [, body, mac] = token.split('.');
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...payload, u: 'mallory' })).toString('base64url');
    expect(tokens.check(`et1.${forged}.${mac}`).kind).toBe('invalid');
    expect(tokens.check(`et1.${body}.${Buffer.alloc(32).toString('base64url')}`).kind).toBe('invalid');
    expect(new EmbedTokens(parseKeyring(newKeyringEntry('k1'))).check(token).kind).toBe('invalid');
    for (const garbage of ['', 'et1.', 'et1.x.y', 'et1.a.b.c', `rk_live_${'a'.repeat(40)}`, `et1.${Buffer.from('{}').toString('base64url')}.${mac}`]) {
      expect([garbage, tokens.check(garbage).kind]).toEqual([garbage, 'invalid']);
    }
  });

  it('keeps the tokens of the previous master key valid after a rotation, until the key leaves the keyring', () => {
    const token = tokens.issue(claims(15));
    const k2 = newKeyringEntry('k2');
    expect(new EmbedTokens(parseKeyring(`${k2},${k1}`)).check(token).kind).toBe('valid');
    expect(new EmbedTokens(parseKeyring(k2)).check(token).kind).toBe('invalid');
  });
});
