import type { Request } from 'express';
import { ApiError } from '../../http/api-error';
import { checkCsrf, checkOrigin } from './csrf';
import type { Session } from './session-store';

const request = (host: string, headers: Record<string, string>) =>
  ({ host, header: (name: string) => headers[name.toLowerCase()] }) as unknown as Request;

const codeOf = (work: () => void) => {
  try {
    work();
    return 'OK';
  } catch (err) {
    return err instanceof ApiError ? `${err.status} ${err.code}` : String(err);
  }
};

const session = { csrfToken: 'the-token-of-this-session' } as Session;

describe('CSRF checks of a session change', () => {
  it("takes no Origin, or this server's host and port whatever the scheme (a proxy may end TLS without saying)", () => {
    expect(codeOf(() => checkOrigin(request('dash.example.com', {})))).toBe('OK');
    expect(codeOf(() => checkOrigin(request('dash.example.com', { origin: 'https://dash.example.com' })))).toBe('OK');
    expect(codeOf(() => checkOrigin(request('127.0.0.1:8080', { origin: 'http://127.0.0.1:8080' })))).toBe('OK');
    expect(codeOf(() => checkOrigin(request('Dash.Example.com', { origin: 'https://dash.example.COM' })))).toBe('OK');
  });

  it('refuses another host, another port, an opaque origin ("null") and garbage', () => {
    for (const origin of ['https://attacker.example', 'https://dash.example.com.attacker.example', 'http://127.0.0.1:9090', 'null', 'not a url', '']) {
      expect([origin, codeOf(() => checkOrigin(request(origin.includes('127.0.0.1') ? '127.0.0.1:8080' : 'dash.example.com', { origin })))]).toEqual([
        origin,
        '403 ORIGIN_NOT_ALLOWED',
      ]);
    }
  });

  it("needs the session's own token in X-CSRF-Token", () => {
    const host = 'dash.example.com';
    expect(codeOf(() => checkCsrf(request(host, { 'x-csrf-token': 'the-token-of-this-session' }), session))).toBe('OK');
    for (const headers of [{} as Record<string, string>, { 'x-csrf-token': '' }, { 'x-csrf-token': 'the-token-of-this-sessio' }, { 'x-csrf-token': 'the-token-of-this-session ' }]) {
      expect(codeOf(() => checkCsrf(request(host, headers), session))).toBe('403 CSRF_TOKEN_INVALID');
    }
    expect(codeOf(() => checkCsrf(request(host, { 'x-csrf-token': 'the-token-of-this-session', origin: 'https://attacker.example' }), session))).toBe(
      '403 ORIGIN_NOT_ALLOWED',
    );
  });
});
