import type { ProcessStack } from '@ris/stack';
import {
  ApiClient,
  OperatorSession,
  adminClient,
  createOperator,
  createTestApp,
  e2eStack,
  sessionCookieOf,
  type TestApp,
  type TestOperator,
} from '@ris/testing';
import { ownStack, removeOwnStack } from './support/own-stack';
import { signInFrom } from './support/sign-in-from';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The console API with no session at all. */
const anonymous = (gatewayUrl = e2eStack().gatewayUrl) => new ApiClient(`${gatewayUrl}/console/v1`);
const signInRequest = (email: string, password: string, gatewayUrl?: string) => anonymous(gatewayUrl).post('/session', { email, password });

async function member(appId: string, operatorId: string, role: string, admin = adminClient()): Promise<void> {
  const res = await admin.put(`/apps/${appId}/members/${operatorId}`, { role });
  if (res.status !== 200) throw new Error(`membership: ${res.status} ${JSON.stringify(res.body)}`);
}

// Sessions of the dashboard, through the real gateway over HTTP, the way a
// browser sends them: the cookie, X-App-Id and X-CSRF-Token.
describe('dashboard sessions', () => {
  let app: TestApp;
  let other: TestApp;
  let stranger: TestApp;
  let ann: TestOperator;

  beforeAll(async () => {
    [app, other, stranger] = await Promise.all([createTestApp('sessions'), createTestApp('sessions other'), createTestApp('sessions stranger')]);
    ann = await createOperator();
    await member(app.appId, ann.id, 'OWNER');
    await member(other.appId, ann.id, 'VIEWER');
  });

  it('signs in with a new HttpOnly, SameSite=Strict session cookie each time, answering who, which apps and the CSRF token', async () => {
    const first = await signInRequest(ann.email.toUpperCase(), ann.password);
    expect(first.status).toBe(200);
    const setCookie = first.headers.getSetCookie().find((c) => c.startsWith('ris_session='))!;
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Strict/);
    expect(setCookie).toMatch(/; Path=\//);
    // Over plain http (no proxy saying https): not Secure, or the browser would never send it back.
    expect(setCookie).not.toMatch(/; Secure/);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(first.body).toEqual({
      operator: { id: ann.id, email: ann.email, isAdmin: false },
      apps: [
        { id: app.appId, name: 'sessions', role: 'OWNER' },
        { id: other.appId, name: 'sessions other', role: 'VIEWER' },
      ],
      currentAppId: app.appId,
      csrfToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });

    const second = await signInRequest(ann.email, ann.password);
    expect(sessionCookieOf(second)).not.toBe(sessionCookieOf(first));
    expect(second.body.csrfToken).not.toBe(first.body.csrfToken);
    // Both are sessions of their own.
    for (const res of [first, second]) {
      const me = await anonymous().get('/session', { cookie: `ris_session=${sessionCookieOf(res)}` });
      expect([me.status, me.body.csrfToken]).toEqual([200, res.body.csrfToken]);
    }
  });

  it('answers an unknown email and a wrong password alike: 401 "Email or password is wrong."', async () => {
    const unknown = await signInRequest(`nobody-${Date.now()}@example.test`, ann.password);
    const wrong = await signInRequest(ann.email, `${ann.password}x`);
    for (const res of [unknown, wrong]) {
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({ code: 'UNAUTHENTICATED', message: 'Email or password is wrong.' });
      expect(sessionCookieOf(res)).toBeUndefined();
    }
    expect((await anonymous().get('/session')).status).toBe(401);
    expect((await anonymous().get('/session', { cookie: 'ris_session=not-a-session' })).status).toBe(401);
  });

  it("answers the dashboard's session probe 200 either way: the session while signed in, null without one", async () => {
    for (const headers of [undefined, { cookie: 'ris_session=not-a-session' }]) {
      const out = await anonymous().get('/session/status', headers);
      expect([out.status, out.body]).toEqual([200, { session: null }]);
      expect(out.headers.get('cache-control')).toBe('no-store');
    }
    const session = await OperatorSession.signIn(ann.email, ann.password);
    const probed = await session.console.get('/session/status');
    expect([probed.status, probed.body]).toEqual([200, { session: (await session.console.get('/session')).body }]);
    expect((await session.console.delete('/session')).status).toBe(204);
    expect((await session.console.get('/session/status')).body).toEqual({ session: null });
  });

  it('reads the session, switches apps (where the next sign-in lands), and signs out: the old cookie then gets 401 everywhere', async () => {
    const session = await OperatorSession.signIn(ann.email, ann.password);
    const me = await session.console.get('/session');
    expect(me.body).toMatchObject({ operator: { id: ann.id }, currentAppId: app.appId, csrfToken: session.csrfToken });

    const switched = await session.console.put('/session/app', { appId: other.appId });
    expect(switched.status).toBe(200);
    expect(switched.body.currentAppId).toBe(other.appId);
    const refused = await session.console.put('/session/app', { appId: stranger.appId });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'FORBIDDEN']);
    expect((await OperatorSession.signIn(ann.email, ann.password)).signedIn.currentAppId).toBe(other.appId);

    const campaigns = await session.api(app.appId).get('/campaigns');
    expect(campaigns.status).toBe(200);
    expect(campaigns.headers.get('cache-control')).toBe('no-store');

    const out = await session.console.delete('/session');
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie().find((c) => c.startsWith('ris_session='))).toMatch(/^ris_session=;.*Expires=Thu, 01 Jan 1970/);
    expect((await session.console.get('/session')).status).toBe(401);
    expect((await session.api(app.appId).get('/campaigns')).status).toBe(401);
    expect((await session.console.get(`/apps/${app.appId}/audit`)).status).toBe(401);
  });

  it('refuses a change made with a session without its CSRF token, with a wrong one or from another origin; reads need none', async () => {
    const session = await OperatorSession.signIn(ann.email, ann.password);
    const cookie = { cookie: `ris_session=${session.cookie}` };
    const api = new ApiClient(`${session.gatewayUrl}/api/v1`);
    const body = { name: 'Via session', referrerReward: { amount: 5, fulfillmentType: 'DISCOUNT_CODE' } };
    const appHeaders = { ...cookie, 'x-app-id': app.appId };
    const refusals = [
      await anonymous().put('/session/app', { appId: app.appId }, cookie),
      await anonymous().put('/session/app', { appId: app.appId }, { ...cookie, 'x-csrf-token': 'wrong' }),
      await anonymous().put('/session/app', { appId: app.appId }, { ...cookie, 'x-csrf-token': `${session.csrfToken}x` }),
      await api.post('/campaigns', body, appHeaders),
      await api.post('/campaigns', body, { ...appHeaders, 'x-csrf-token': 'wrong' }),
      await api.request('DELETE', '/webhooks/wh_none', { headers: appHeaders }),
    ];
    for (const res of refusals) expect([res.status, res.body.error.code]).toEqual([403, 'CSRF_TOKEN_INVALID']);
    const foreign = { origin: 'https://attacker.example' };
    for (const res of [
      await session.console.put('/session/app', { appId: app.appId }, foreign),
      await session.api(app.appId).post('/campaigns', body, foreign),
      await anonymous().post('/session', { email: ann.email, password: ann.password }, foreign),
    ]) {
      expect([res.status, res.body.error.code]).toEqual([403, 'ORIGIN_NOT_ALLOWED']);
    }
    // Nothing was made by the refused requests.
    expect((await app.api.get('/campaigns?limit=100')).body.campaigns.filter((c: { name: string }) => c.name === 'Via session')).toEqual([]);

    expect((await api.get('/campaigns', appHeaders)).status).toBe(200);
    const own = { origin: session.gatewayUrl };
    expect((await session.console.put('/session/app', { appId: app.appId }, own)).status).toBe(200);
    expect((await session.api(app.appId).post('/campaigns', body, own)).status).toBe(201);
  });

  it('acts in the app X-App-Id names: required with a session, and 403 for an app the operator is not a member of', async () => {
    const session = await OperatorSession.signIn(ann.email, ann.password);
    const api = new ApiClient(`${session.gatewayUrl}/api/v1`, undefined, { cookie: `ris_session=${session.cookie}` });
    const missing = await api.get('/campaigns');
    expect([missing.status, missing.body.error.code, missing.body.error.details.issues[0].field]).toEqual([400, 'VALIDATION_ERROR', 'header.X-App-Id']);
    for (const appId of [stranger.appId, 'app_does_not_exist']) {
      const res = await session.api(appId).get('/campaigns');
      expect([res.status, res.body.error.code]).toEqual([403, 'FORBIDDEN']);
    }
    // An API key in the same request wins: the key's app, whatever the cookie and X-App-Id say.
    const keyed = await new ApiClient(`${session.gatewayUrl}/api/v1`, stranger.apiKey, { cookie: `ris_session=${session.cookie}`, 'x-app-id': app.appId }).get('/campaigns');
    expect(keyed.status).toBe(200);
    expect(keyed.headers.get('cache-control')).toBeNull();
  });

  it("ends the operator's other sessions when they change their password (not this one), and every session at an admin reset", async () => {
    const bob = await createOperator();
    await member(app.appId, bob.id, 'MANAGER');
    const [one, two] = [await OperatorSession.signIn(bob.email, bob.password), await OperatorSession.signIn(bob.email, bob.password)];

    const wrong = await one.console.post('/session/password', { currentPassword: 'not it at all', newPassword: 'a new password of mine' });
    expect([wrong.status, wrong.body.error.code, wrong.body.error.details.issues[0].field]).toEqual([422, 'CURRENT_PASSWORD_WRONG', 'body.currentPassword']);
    const short = await one.console.post('/session/password', { currentPassword: bob.password, newPassword: 'short' });
    expect([short.status, short.body.error.details.issues[0].field]).toEqual([400, 'body.newPassword']);
    expect((await one.console.post('/session/password', { currentPassword: bob.password, newPassword: 'a new password of mine' })).status).toBe(204);
    expect((await two.console.get('/session')).status).toBe(401);
    expect((await one.console.get('/session')).status).toBe(200);
    expect((await signInRequest(bob.email, bob.password)).status).toBe(401);
    const three = await OperatorSession.signIn(bob.email, 'a new password of mine');

    const reset = await adminClient().post(`/operators/${bob.id}/password`, {});
    expect(reset.status).toBe(200);
    expect(reset.body.password).toMatch(/^[0-9A-Za-z]{24}$/);
    expect((await one.console.get('/session')).status).toBe(401);
    expect((await three.api(app.appId).get('/campaigns')).status).toBe(401);
    expect((await signInRequest(bob.email, reset.body.password)).status).toBe(200);
  });

  it('slows an account tried from one address, without locking its owner out: another address and a known browser sign in', async () => {
    const carol = await createOperator();
    const gatewayUrl = e2eStack().gatewayUrl;
    const attacker = (password: string, headers: Record<string, string> = {}) => signInFrom(gatewayUrl, '127.0.0.1', { email: carol.email, password }, headers);
    // A browser the owner signed in from before: known to the account.
    const known = await signInFrom(gatewayUrl, '127.0.0.1', carol);
    expect(known.status).toBe(200);
    const device = known.cookies.get('ris_known_device') as string;
    expect(device).toMatch(/^kd1\./);

    // 100 wrong passwords from one address, with a different X-Forwarded-For each (not trusted without TRUST_PROXY):
    // 5 are checked, the rest wait.
    const tries = await Promise.all(Array.from({ length: 100 }, (_, i) => attacker(`wrong ${i}`, { 'x-forwarded-for': `198.51.100.${i}` })));
    expect(tries.filter((t) => t.status === 401)).toHaveLength(5);
    expect(tries.filter((t) => t.status === 429)).toHaveLength(95);
    // The right password from that address waits too (this stack's first wait is a minute, then doubles)…
    const slowed = await attacker(carol.password);
    expect([slowed.status, slowed.body.error.code]).toEqual([429, 'RATE_LIMITED']);
    expect(slowed.retryAfter).toBeGreaterThan(30);
    expect(slowed.retryAfter).toBeLessThanOrEqual(60);
    // …but the owner signs in from another address, and from the browser the account knows on the same one.
    expect((await signInFrom(gatewayUrl, '127.0.0.2', carol)).status).toBe(200);
    expect((await signInFrom(gatewayUrl, '127.0.0.1', carol, { cookie: `ris_known_device=${device}` })).status).toBe(200);
    // A device cookie of another account, or a forged one, is no known browser.
    expect((await signInFrom(gatewayUrl, '127.0.0.1', carol, { cookie: `ris_known_device=${device.slice(0, device.lastIndexOf('.'))}.${'A'.repeat(43)}` })).status).toBe(429);
    // Other accounts sign in from the attacker's address (the shared stack lets one address fail without limit).
    expect((await signInFrom(gatewayUrl, '127.0.0.1', ann)).status).toBe(200);
  });

  it('slows an account tried from many addresses for browsers it does not know, never for one it knows', async () => {
    const erin = await createOperator();
    const gatewayUrl = e2eStack().gatewayUrl;
    const device = (await signInFrom(gatewayUrl, '127.0.0.1', erin)).cookies.get('ris_known_device') as string;
    // 5 failures from each of 10 addresses: 50, the account's free failures from anywhere.
    for (let host = 10; host < 20; host += 1) {
      const from = `127.0.3.${host}`;
      const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => signInFrom(gatewayUrl, from, { email: erin.email, password: `wrong ${i}` })));
      expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401, 401]);
    }
    const fresh = await signInFrom(gatewayUrl, '127.0.3.99', erin);
    expect(fresh.status).toBe(429);
    expect(fresh.retryAfter).toBeGreaterThan(30);
    expect((await signInFrom(gatewayUrl, '127.0.3.99', erin, { cookie: `ris_known_device=${device}` })).status).toBe(200);
  });
});

// A gateway of its own (its own database and Redis keys): short idle
// sessions, and the default per-address sign-in limit, which the shared
// stack raises so that its test files cannot lock each other out.
describe('a gateway with 3-second idle sessions and the default sign-in limits', () => {
  let stack: ProcessStack;
  let admin: ApiClient;
  let appId: string;
  let dana: TestOperator;

  beforeAll(async () => {
    // The default limits, but a first wait of a minute: still waiting when the test looks, however slow the machine.
    stack = ownStack('csess', { apps: ['gateway'], appEnv: { gateway: { SESSION_IDLE_TIMEOUT_SECONDS: '3', LOGIN_FIRST_DELAY_SECONDS: '60' } } });
    await stack.start();
    admin = new ApiClient(`${stack.gatewayUrl}/admin/v1`, stack.options.adminToken);
    appId = (await admin.post('/apps', { name: 'idle' })).body.app.id;
    dana = await createOperator({ admin });
    await member(appId, dana.id, 'VIEWER', admin);
  }, 60_000);

  afterAll(() => removeOwnStack(stack));

  it('ends a session after 3 s without a request, while one used every second lives on', async () => {
    const idle = await OperatorSession.signIn(dana.email, dana.password, stack.gatewayUrl);
    const busy = await OperatorSession.signIn(dana.email, dana.password, stack.gatewayUrl);
    for (let i = 0; i < 4; i += 1) {
      await pause(1_000);
      expect((await busy.console.get('/session')).status).toBe(200);
    }
    expect((await idle.console.get('/session')).status).toBe(401);
    expect((await idle.console.get(`/apps/${appId}/audit`)).status).toBe(401);
  });

  it('slows sign-ins per client address: after 20 failures (any accounts), every sign-in from it waits, from others not', async () => {
    for (let i = 0; i < 20; i += 1) {
      expect((await signInRequest(`guess-${i}@example.test`, 'a wrong password', stack.gatewayUrl)).status).toBe(401);
    }
    const res = await signInRequest(dana.email, dana.password, stack.gatewayUrl);
    expect([res.status, res.body.error.code]).toEqual([429, 'RATE_LIMITED']);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(30);
    expect((await signInFrom(stack.gatewayUrl, '127.0.0.2', dana)).status).toBe(200);
  });
});
