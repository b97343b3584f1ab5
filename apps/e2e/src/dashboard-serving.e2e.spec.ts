import { OperatorSession, adminClient, createOperator, createTestApp, e2eStack } from '@ris/testing';

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

function expectSecurityHeaders(headers: Headers): void {
  expect(headers.get('content-security-policy')).toBe(CSP);
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('referrer-policy')).toBe('same-origin');
}

// The dashboard is served by the gateway, one origin with the API it calls.
describe('the dashboard at /dashboard', () => {
  const url = (path: string) => `${e2eStack().gatewayUrl}${path}`;

  it('answers its page for itself and every client-side route, with the security headers, never cached, without inline script', async () => {
    for (const path of ['/dashboard', '/dashboard/', '/dashboard/fraud?status=OPEN', '/dashboard/campaigns/cmp_1/edit']) {
      const res = await fetch(url(path));
      expect([path, res.status]).toEqual([path, 200]);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expectSecurityHeaders(res.headers);
      const html = await res.text();
      // Built or not (a page that says how to build it), no script the CSP would have to allow inline.
      for (const tag of html.match(/<script\b[^>]*>/g) ?? []) expect(tag).toMatch(/\ssrc=/);
    }
  });

  it("serves the built app's hashed assets, cacheable for a year (none when the dashboard is not built)", async () => {
    const html = await (await fetch(url('/dashboard'))).text();
    for (const asset of new Set(html.match(/\/dashboard\/assets\/[^"']+/g) ?? [])) {
      const res = await fetch(url(asset));
      expect([asset, res.status]).toEqual([asset, 200]);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expectSecurityHeaders(res.headers);
    }
  });

  it('answers a missing asset 404 (not the page), with the security headers', async () => {
    const res = await fetch(url('/dashboard/assets/does-not-exist-0123.js'));
    expect(res.status).toBe(404);
    expectSecurityHeaders(res.headers);
  });

  it('gives every console answer the security headers and no-store, and every /api/v1 answer made with a session no-store', async () => {
    const app = await createTestApp('headers');
    const op = await createOperator();
    await adminClient().put(`/apps/${app.appId}/members/${op.id}`, { role: 'VIEWER' });
    const session = await OperatorSession.signIn(op.email, op.password);
    for (const res of [
      await session.console.get('/session'),
      await session.console.get(`/apps/${app.appId}/audit`),
      await session.console.get(`/apps/${app.appId}/keys`), // 403 for a VIEWER: errors too
      await fetch(url('/console/v1/session')).then((r) => ({ headers: r.headers, status: r.status })), // 401
    ]) {
      expect(res.headers.get('cache-control')).toBe('no-store');
      expectSecurityHeaders(res.headers);
    }
    for (const res of [await session.api(app.appId).get('/campaigns'), await session.api(app.appId).post('/campaigns', {})]) {
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    // An app's backend with its key: answers as before.
    expect((await app.api.get('/campaigns')).headers.get('cache-control')).toBeNull();
  });
});
