import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  ApiClient,
  OperatorSession,
  adminClient,
  createOperator,
  createTestApp,
  e2eStack,
  eventually,
  type TestApp,
  type TestOperator,
} from '@ris/testing';


const root = join(__dirname, '..', '..', '..');
const run = promisify(execFile);

async function member(appId: string, operatorId: string, role: string): Promise<void> {
  const res = await adminClient().put(`/apps/${appId}/members/${operatorId}`, { role });
  if (res.status !== 200) throw new Error(`membership: ${res.status} ${JSON.stringify(res.body)}`);
}

let counter = 0;
const newEmail = () => `new-${Date.now().toString(36)}-${(counter += 1)}@example.test`;

// The console's keys, members and apps, and the admin API and CLI behind
// them, through the real gateway over HTTP.
describe('API keys in the console', () => {
  let app: TestApp;
  let owner: OperatorSession;

  beforeAll(async () => {
    app = await createTestApp('console keys');
    const op = await createOperator();
    await member(app.appId, op.id, 'OWNER');
    owner = await OperatorSession.signIn(op.email, op.password);
  });

  it('issues a key shown once, lists keys without them (with when each was last used), and revokes one: 401 at once', async () => {
    const issued = await owner.console.post(`/apps/${app.appId}/keys`);
    expect(issued.status).toBe(201);
    const key = issued.body.key;
    expect(key).toEqual({ id: expect.stringMatching(/^key_/), apiKey: expect.stringMatching(/^rk_live_/), name: null, prefix: key.apiKey.slice(0, 12), createdAt: expect.any(String) });
    const api = new ApiClient(`${e2eStack().gatewayUrl}/api/v1`, key.apiKey);

    const before = await owner.console.get(`/apps/${app.appId}/keys`);
    expect(before.status).toBe(200);
    expect(JSON.stringify(before.body)).not.toContain(key.apiKey);
    expect(before.body.keys.find((k: any) => k.id === key.id)).toEqual({ id: key.id, name: null, prefix: key.prefix, createdAt: key.createdAt, revokedAt: null, lastUsedAt: null });

    expect((await api.get('/campaigns')).status).toBe(200);
    const listed = async () => (await owner.console.get(`/apps/${app.appId}/keys`)).body.keys.find((k: any) => k.id === key.id);
    const used = await eventually(listed, (k: any) => k.lastUsedAt !== null, 5_000);
    expect(Date.now() - Date.parse(used.lastUsedAt)).toBeLessThan(60_000);

    expect((await owner.console.delete(`/apps/${app.appId}/keys/${key.id}`)).status).toBe(204);
    const refused = await api.get('/campaigns');
    expect([refused.status, refused.body.error.code]).toEqual([401, 'UNAUTHENTICATED']);
    expect((await listed()).revokedAt).toEqual(expect.any(String));
    expect((await owner.console.delete(`/apps/${app.appId}/keys/key_does_not_exist`)).status).toBe(404);
    // The app's first key is untouched.
    expect((await app.api.get('/campaigns')).status).toBe(200);
  });

  it('names a key when issuing it (optional, trimmed, at most 100 characters) and lists it by that name', async () => {
    const named = await owner.console.post(`/apps/${app.appId}/keys`, { name: '  Production backend ' });
    expect([named.status, named.body.key.name]).toEqual([201, 'Production backend']);
    expect((await owner.console.post(`/apps/${app.appId}/keys`, {})).body.key.name).toBeNull();
    const tooLong = await owner.console.post(`/apps/${app.appId}/keys`, { name: 'x'.repeat(101) });
    expect([tooLong.status, tooLong.body.error.details.issues[0].field]).toEqual([400, 'body.name']);
    expect((await owner.console.post(`/apps/${app.appId}/keys`, { name: '   ' })).status).toBe(400);
    const listed = (await owner.console.get(`/apps/${app.appId}/keys`)).body.keys.find((k: any) => k.id === named.body.key.id);
    expect(listed).toMatchObject({ name: 'Production backend', prefix: named.body.key.prefix });
  });
});

describe('members of an app in the console', () => {
  let app: TestApp;
  let ownerOp: TestOperator;
  let owner: OperatorSession;

  beforeAll(async () => {
    app = await createTestApp('console members');
    ownerOp = await createOperator();
    await member(app.appId, ownerOp.id, 'OWNER');
    owner = await OperatorSession.signIn(ownerOp.email, ownerOp.password);
  });

  it('adds an existing operator at once, and invites a new address by a one-time link (console-invitations.e2e.spec.ts)', async () => {
    const existing = await createOperator();
    const added = await owner.console.post(`/apps/${app.appId}/members`, { email: existing.email, role: 'MANAGER' });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ member: { operatorId: existing.id, email: existing.email, role: 'MANAGER', addedAt: expect.any(String) } });
    const again = await owner.console.post(`/apps/${app.appId}/members`, { email: existing.email, role: 'VIEWER' });
    expect([again.status, again.body.error.code]).toEqual([409, 'ALREADY_EXISTS']);

    const email = newEmail();
    const invited = await owner.console.post(`/apps/${app.appId}/members`, { email: email.toUpperCase(), role: 'VIEWER' });
    expect(invited.status).toBe(202);
    expect(invited.body.invitation).toMatchObject({ email, role: 'VIEWER', status: 'PENDING' });
    expect(invited.body.initialPassword).toBeUndefined();

    // Not a member (nor an account) until the link is accepted.
    const list = await owner.console.get(`/apps/${app.appId}/members`);
    expect(list.body.members.map((m: any) => [m.email, m.role])).toEqual([
      [ownerOp.email, 'OWNER'],
      [existing.email, 'MANAGER'],
    ]);
    expect(list.body.invitations.map((i: any) => [i.email, i.role])).toEqual([[email, 'VIEWER']]);
  });

  it('changes roles and removes members, effective at once; the last OWNER is neither demoted nor removed (409 LAST_OWNER)', async () => {
    const op = await createOperator();
    await owner.console.post(`/apps/${app.appId}/members`, { email: op.email, role: 'VIEWER' });
    const session = await OperatorSession.signIn(op.email, op.password);
    const body = { name: 'By a promoted member', referrerReward: { amount: 1, fulfillmentType: 'DISCOUNT_CODE' } };
    expect((await session.api(app.appId).post('/campaigns', body)).status).toBe(403);
    const promoted = await owner.console.patch(`/apps/${app.appId}/members/${op.id}`, { role: 'MANAGER' });
    expect(promoted.body.member).toMatchObject({ operatorId: op.id, role: 'MANAGER' });
    expect((await session.api(app.appId).post('/campaigns', body)).status).toBe(201);

    for (const res of [
      await owner.console.patch(`/apps/${app.appId}/members/${ownerOp.id}`, { role: 'VIEWER' }),
      await owner.console.delete(`/apps/${app.appId}/members/${ownerOp.id}`),
    ]) {
      expect([res.status, res.body.error.code]).toEqual([409, 'LAST_OWNER']);
    }
    expect((await owner.console.patch(`/apps/${app.appId}/members/opr_not_a_member`, { role: 'VIEWER' })).status).toBe(404);

    expect((await owner.console.delete(`/apps/${app.appId}/members/${op.id}`)).status).toBe(204);
    const gone = await session.api(app.appId).get('/campaigns');
    expect([gone.status, gone.body.error.code]).toEqual([403, 'FORBIDDEN']);
    expect((await session.console.get('/session')).body.apps).toEqual([]);

    // With a second OWNER, the first may step down.
    await owner.console.patch(`/apps/${app.appId}/members/${op.id}`, { role: 'OWNER' }).then((r) => expect(r.status).toBe(404));
    await owner.console.post(`/apps/${app.appId}/members`, { email: op.email, role: 'OWNER' });
    expect((await owner.console.patch(`/apps/${app.appId}/members/${ownerOp.id}`, { role: 'MANAGER' })).status).toBe(200);
    expect((await owner.console.get(`/apps/${app.appId}/members`)).status).toBe(403);
  });
});

describe('apps in the console', () => {
  it('lists the apps an operator may enter; only an instance administrator creates one, with its first key shown once', async () => {
    const app = await createTestApp('console apps');
    const plain = await createOperator();
    await member(app.appId, plain.id, 'MANAGER');
    const session = await OperatorSession.signIn(plain.email, plain.password);
    expect((await session.console.get('/apps')).body).toEqual({ apps: [{ id: app.appId, name: 'console apps', role: 'MANAGER' }] });
    const refused = await session.console.post('/apps', { name: 'Not mine to make' });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'FORBIDDEN']);

    const rootOp = await createOperator({ isAdmin: true });
    const root = await OperatorSession.signIn(rootOp.email, rootOp.password);
    const created = await root.console.post('/apps', { name: 'Made in the console' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      app: { id: expect.stringMatching(/^app_/), name: 'Made in the console', role: 'OWNER' },
      key: { id: expect.stringMatching(/^key_/), apiKey: expect.stringMatching(/^rk_live_/), prefix: expect.any(String), createdAt: expect.any(String) },
    });
    const apps = (await root.console.get('/apps')).body.apps;
    expect(apps).toEqual(expect.arrayContaining([{ id: created.body.app.id, name: 'Made in the console', role: 'OWNER' }, { id: app.appId, name: 'console apps', role: 'OWNER' }]));
    const key = new ApiClient(`${e2eStack().gatewayUrl}/api/v1`, created.body.key.apiKey);
    expect((await key.get('/campaigns')).status).toBe(200);
    const audit = await root.console.get(`/apps/${created.body.app.id}/audit`);
    expect(audit.body.entries).toMatchObject([
      { action: 'POST /console/v1/apps', target: { type: 'app', id: created.body.app.id }, after: { key: { apiKey: '[redacted]' } } },
    ]);
  });
});

describe('operators through the admin API and npm run admin', () => {
  it('creates operators (a generated password shown once), lists them, refuses a taken email, resets a password', async () => {
    const admin = adminClient();
    const email = newEmail();
    const created = await admin.post('/operators', { email });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      operator: { id: expect.stringMatching(/^opr_/), email, isAdmin: false, createdAt: expect.any(String), passwordChangedAt: expect.any(String) },
      initialPassword: expect.stringMatching(/^[0-9A-Za-z]{24}$/),
    });
    await OperatorSession.signIn(email, created.body.initialPassword);
    const taken = await admin.post('/operators', { email: email.toUpperCase(), password: 'another long password' });
    expect([taken.status, taken.body.error.code]).toEqual([409, 'ALREADY_EXISTS']);
    const short = await admin.post('/operators', { email: newEmail(), password: 'short' });
    expect([short.status, short.body.error.details.issues[0].field]).toEqual([400, 'body.password']);

    const found = await admin.get(`/operators?email=${encodeURIComponent(email)}`);
    expect(found.body).toEqual({ operators: [created.body.operator], pagination: { page: 1, limit: 25, totalItems: 1, totalPages: 1 } });
    expect((await admin.get('/operators?limit=1')).body.operators).toHaveLength(1);

    const chosen = await admin.post(`/operators/${created.body.operator.id}/password`, { password: 'chosen by the admin!' });
    expect(chosen.status).toBe(200);
    expect(chosen.body.password).toBeUndefined();
    await OperatorSession.signIn(email, 'chosen by the admin!');
    expect((await admin.post('/operators/opr_nobody/password', {})).status).toBe(404);
    expect((await admin.put('/apps/app_nobody/members/' + created.body.operator.id, { role: 'VIEWER' })).status).toBe(404);
    expect((await admin.put('/apps/' + (await createTestApp()).appId + '/members/opr_nobody', { role: 'VIEWER' })).status).toBe(404);
  });

  it('npm run admin: create-operator, reset-password and add-member, by email', async () => {
    const app = await createTestApp('cli');
    const env = { ...process.env, GATEWAY_URL: e2eStack().gatewayUrl, ADMIN_TOKEN: e2eStack().adminToken };
    const cli = async (args: string[], extra: Record<string, string> = {}) =>
      JSON.parse((await run(process.execPath, [join(root, 'tools', 'admin-cli.mjs'), ...args], { env: { ...env, ...extra } })).stdout) as any;
    const email = newEmail();

    const created = await cli(['create-operator', email]);
    expect(created).toMatchObject({ operator: { email, isAdmin: false }, initialPassword: expect.any(String) });
    const reset = await cli(['reset-password', email], { OPERATOR_PASSWORD: 'set from the command line' });
    expect(reset).toMatchObject({ operator: { id: created.operator.id } });
    expect(reset.password).toBeUndefined();
    const added = await cli(['add-member', app.appId, email, 'manager']);
    expect(added).toEqual({ member: { operatorId: created.operator.id, email, role: 'MANAGER', addedAt: expect.any(String) } });

    const session = await OperatorSession.signIn(email, 'set from the command line');
    expect(session.signedIn.apps).toEqual([{ id: app.appId, name: 'cli', role: 'MANAGER' }]);
    const admins = await cli(['create-operator', newEmail(), '--admin']);
    expect(admins.operator.isAdmin).toBe(true);
    await expect(run(process.execPath, [join(root, 'tools', 'admin-cli.mjs'), 'reset-password', 'nobody@example.test'], { env })).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('no operator with email nobody@example.test'),
    });
  });
});
