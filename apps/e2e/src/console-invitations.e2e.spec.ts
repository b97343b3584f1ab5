import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import type { ProcessStack } from '@ris/stack';
import {
  ApiClient,
  OperatorSession,
  SmtpSink,
  addMember,
  createOperator,
  createTestApp,
  e2eStack,
  eventually,
  secretTraces,
  sessionCookieOf,
  type ApiResponse,
  type TestApp,
  type TestOperator,
} from '@ris/testing';
import { ownStack, removeOwnStack } from './support/own-stack';
import { serviceDatabase } from './support/referral-scenario';

let counter = 0;
const newEmail = () => `guest-${Date.now().toString(36)}-${(counter += 1)}@example.test`;
const campaignBody = { name: 'By an invited manager', referrerReward: { amount: 1, fulfillmentType: 'DISCOUNT_CODE' } };

/** The console API with no session at all: what an invitation link's guest has. */
const anonymous = (gatewayUrl = e2eStack().gatewayUrl) => new ApiClient(`${gatewayUrl}/console/v1`);
/** The token of an invitation link (its last path segment). */
const tokenOf = (inviteUrl: string) => new URL(inviteUrl).pathname.split('/').at(-1)!;
const accept = (token: string, password: string, gatewayUrl?: string) => anonymous(gatewayUrl).post(`/invitations/${token}/accept`, { password });
/** The browser session an accepted invitation answered with. */
const sessionOf = (res: ApiResponse, gatewayUrl = e2eStack().gatewayUrl) => new OperatorSession(gatewayUrl, sessionCookieOf(res)!, res.body.csrfToken, res.body);

/** An invitation of a new address through the console; fails unless the API made one. */
async function invite(owner: OperatorSession, appId: string, role = 'VIEWER', email = newEmail()): Promise<{ email: string; token: string; body: any }> {
  const res = await owner.console.post(`/apps/${appId}/members`, { email, role });
  if (res.status !== 202) throw new Error(`inviting ${email}: ${res.status} ${JSON.stringify(res.body)}`);
  return { email, token: tokenOf(res.body.inviteUrl), body: res.body };
}

/** A request from a source address of our choosing (127.0.0.0/8 is all loopback): a second client to the gateway. */
function getFrom(gatewayUrl: string, localAddress: string, path: string): Promise<{ status: number; retryAfter: string | undefined }> {
  return new Promise((resolve, reject) => {
    request(new URL(path, gatewayUrl), { localAddress }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] }));
    })
      .on('error', reject)
      .end();
  });
}

/** What a link that cannot be used answers, whatever the reason. */
const NOT_VALID = [404, 'NOT_FOUND', 'This invitation link is not valid: it is unknown, used, revoked or expired.'];
const refusalOf = (res: ApiResponse) => [res.status, res.body?.error?.code, res.body?.error?.message];

// Invitations of members without an account by a one-time link, through
// the real gateway over HTTP: the OWNER's side with a session, the
// guest's side with nothing but the link.
describe('invitations of new members by a one-time link', () => {
  let app: TestApp;
  let ownerOp: TestOperator;
  let owner: OperatorSession;

  beforeAll(async () => {
    app = await createTestApp('invitations');
    ownerOp = await createOperator();
    await addMember(app.appId, ownerOp.id, 'OWNER');
    owner = await OperatorSession.signIn(ownerOp.email, ownerOp.password);
  });

  it('invites an address without an account; its link shows the invitation, and accepting makes the account, signs in and joins with the role', async () => {
    const email = newEmail();
    const invited = await owner.console.post(`/apps/${app.appId}/members`, { email: email.toUpperCase(), role: 'MANAGER' });
    expect(invited.status).toBe(202);
    const invitation = invited.body.invitation;
    expect(invited.body).toEqual({
      invitation: {
        id: expect.stringMatching(/^inv_/),
        email,
        role: 'MANAGER',
        invitedBy: { operatorId: ownerOp.id, email: ownerOp.email },
        createdAt: expect.any(String),
        sentAt: invitation.createdAt,
        expiresAt: expect.any(String),
        status: 'PENDING',
      },
      inviteUrl: expect.stringMatching(new RegExp(`^${e2eStack().gatewayUrl}/dashboard/invite/[A-Za-z0-9_-]{43}$`)),
      emailDelivery: 'NOT_CONFIGURED',
    });
    expect(Date.parse(invitation.expiresAt) - Date.parse(invitation.createdAt)).toBe(7 * 24 * 3600_000);
    const token = tokenOf(invited.body.inviteUrl);
    const listed = await owner.console.get(`/apps/${app.appId}/members`);
    expect(listed.body.invitations).toEqual([invitation]);
    expect(listed.body.members.map((m: any) => m.email)).toEqual([ownerOp.email]);
    expect((await owner.console.get(`/apps/${app.appId}/invitations/${invitation.id}`)).body).toEqual({ invitation });
    // Only a hash of the token is stored.
    const db = await serviceDatabase('gateway');
    try {
      expect(secretTraces(await db.collection('invitations').find({}).toArray(), token)).toEqual([]);

      // The guest, with the link only: who invited them to what, and the dashboard's page for it.
      const read = await anonymous().get(`/invitations/${token}`);
      expect([read.status, read.headers.get('cache-control')]).toEqual([200, 'no-store']);
      expect(read.body).toEqual({
        invitation: { app: { id: app.appId, name: 'invitations' }, email, role: 'MANAGER', invitedBy: ownerOp.email, expiresAt: invitation.expiresAt, hasAccount: false },
      });
      const page = await fetch(invited.body.inviteUrl);
      expect([page.status, page.headers.get('content-type')]).toEqual([200, expect.stringContaining('text/html')]);

      // The password rules of every new password.
      const short = await accept(token, 'too short');
      expect([short.status, short.body.error.details.issues[0].field]).toEqual([400, 'body.password']);
      expect((await anonymous().post('/session', { email, password: 'a password never set' })).status).toBe(401);

      const accepted = await accept(token, 'chosen by the guest');
      expect(accepted.status).toBe(200);
      expect(accepted.body).toEqual({
        operator: { id: expect.stringMatching(/^opr_/), email, isAdmin: false },
        apps: [{ id: app.appId, name: 'invitations', role: 'MANAGER' }],
        currentAppId: app.appId,
        csrfToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      });
      expect(accepted.headers.getSetCookie().find((c) => c.startsWith('ris_session='))).toMatch(/; HttpOnly.*; SameSite=Strict/);
      const guest = sessionOf(accepted);
      expect((await guest.console.get('/session')).body.operator.email).toBe(email);
      expect((await guest.api(app.appId).post('/campaigns', campaignBody)).status).toBe(201);

      const after = await owner.console.get(`/apps/${app.appId}/members`);
      expect(after.body.members.map((m: any) => [m.email, m.role])).toEqual([
        [ownerOp.email, 'OWNER'],
        [email, 'MANAGER'],
      ]);
      expect(after.body.invitations).toEqual([]);
      expect((await owner.console.get(`/apps/${app.appId}/invitations/${invitation.id}`)).status).toBe(404);
      // Their password from now on, and where they land.
      expect((await OperatorSession.signIn(email, 'chosen by the guest')).signedIn.currentAppId).toBe(app.appId);

      // Audited: the invitation as the OWNER's change (its link redacted), the acceptance as the new member's.
      const entries = (await owner.console.get(`/apps/${app.appId}/audit?limit=100`)).body.entries as any[];
      expect(entries.find((e) => e.target?.id === invitation.id)).toMatchObject({
        operator: { id: ownerOp.id },
        action: 'POST /console/v1/apps/{appId}/members',
        target: { type: 'invitation', id: invitation.id },
        after: { invitation: { email }, inviteUrl: '[redacted]', emailDelivery: 'NOT_CONFIGURED' },
        outcome: 'SUCCEEDED',
      });
      expect(entries.find((e) => e.action === 'POST /console/v1/invitations/{token}/accept' && e.operator.email === email)).toMatchObject({
        target: { type: 'member', id: accepted.body.operator.id },
        before: { invitation: { id: invitation.id, role: 'MANAGER', invitedBy: ownerOp.email } },
        after: { member: { email, role: 'MANAGER' } },
        outcome: 'SUCCEEDED',
      });
      expect(secretTraces(await db.collection('audit_entries').find({ appId: app.appId }).toArray(), token)).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it('answers every link that cannot be used alike, 404, and accepts none: used, expired, revoked, re-sent, unknown', async () => {
    const used = await invite(owner, app.appId);
    expect((await accept(used.token, 'first and only use')).status).toBe(200);

    // Expired: its stored expiry moved into the past (no waiting for days).
    const expired = await invite(owner, app.appId);
    const db = await serviceDatabase('gateway');
    try {
      await db.collection('invitations').updateOne({ _id: expired.body.invitation.id } as never, { $set: { expiresAt: new Date(Date.now() - 1_000) } });
    } finally {
      await db.close();
    }
    const revoked = await invite(owner, app.appId);
    expect((await owner.console.delete(`/apps/${app.appId}/invitations/${revoked.body.invitation.id}`)).status).toBe(204);
    expect((await owner.console.delete(`/apps/${app.appId}/invitations/${revoked.body.invitation.id}`)).status).toBe(404);
    const resent = await invite(owner, app.appId);
    const renewed = await owner.console.post(`/apps/${app.appId}/invitations/${resent.body.invitation.id}/resend`);
    expect(renewed.status).toBe(200);
    expect(renewed.body).toMatchObject({ invitation: { id: resent.body.invitation.id, email: resent.email, status: 'PENDING' }, emailDelivery: 'NOT_CONFIGURED' });
    expect(tokenOf(renewed.body.inviteUrl)).not.toBe(resent.token);

    for (const token of [used.token, expired.token, revoked.token, resent.token, randomBytes(32).toString('base64url')]) {
      expect(refusalOf(await anonymous().get(`/invitations/${token}`))).toEqual(NOT_VALID);
      expect(refusalOf(await accept(token, 'a long enough password'))).toEqual(NOT_VALID);
    }
    expect((await anonymous().get('/invitations/not-a-token')).status).toBe(400);

    // The expired one is listed as such until re-sent, which makes a new link that works; the re-sent one's new link works.
    const listed = (await owner.console.get(`/apps/${app.appId}/members`)).body.invitations as any[];
    expect(listed.find((i) => i.id === expired.body.invitation.id).status).toBe('EXPIRED');
    expect(listed.map((i) => i.id)).not.toContain(revoked.body.invitation.id);
    const fresh = await owner.console.post(`/apps/${app.appId}/invitations/${expired.body.invitation.id}/resend`);
    expect(fresh.body.invitation.status).toBe('PENDING');
    expect((await anonymous().get(`/invitations/${tokenOf(fresh.body.inviteUrl)}`)).status).toBe(200);
    expect((await accept(tokenOf(renewed.body.inviteUrl), 'the re-sent link works')).status).toBe(200);
  });

  it('lets exactly one of 10 concurrent acceptances of one link through', async () => {
    const { email, token } = await invite(owner, app.appId, 'VIEWER');
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => accept(token, `concurrent password ${i}`)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 404, 404, 404, 404, 404, 404, 404, 404, 404]);
    const winner = answers.findIndex((a) => a.status === 200);
    await OperatorSession.signIn(email, `concurrent password ${winner}`);
    const members = (await owner.console.get(`/apps/${app.appId}/members`)).body.members as any[];
    expect(members.filter((m) => m.email === email)).toEqual([expect.objectContaining({ role: 'VIEWER' })]);
  });

  it("lets an address that got an account since it was invited accept with that account's password", async () => {
    const other = await createTestApp('invitations second app');
    await addMember(other.appId, ownerOp.id, 'OWNER');
    const email = newEmail();
    const first = await invite(owner, app.appId, 'VIEWER', email);
    const second = await invite(owner, other.appId, 'MANAGER', email);
    expect((await accept(first.token, 'my one password')).status).toBe(200);

    expect((await anonymous().get(`/invitations/${second.token}`)).body.invitation).toMatchObject({ email, hasAccount: true });
    const wrong = await accept(second.token, 'not my password at all');
    expect([wrong.status, wrong.body.error.code, wrong.body.error.details.issues[0].field]).toEqual([422, 'PASSWORD_WRONG', 'body.password']);
    const joined = await accept(second.token, 'my one password');
    expect(joined.status).toBe(200);
    expect(joined.body.currentAppId).toBe(other.appId);
    expect(joined.body.apps).toEqual([
      { id: app.appId, name: 'invitations', role: 'VIEWER' },
      { id: other.appId, name: 'invitations second app', role: 'MANAGER' },
    ]);
  });

  it('refuses a second invitation of one address (409), and adds at once, dropping its invitation, an address that has an account', async () => {
    const { email, body } = await invite(owner, app.appId);
    const again = await owner.console.post(`/apps/${app.appId}/members`, { email, role: 'MANAGER' });
    expect([again.status, again.body.error.code]).toEqual([409, 'ALREADY_EXISTS']);
    // The address gets an account another way (the admin API): adding it now makes it a member at once.
    const created = await createOperator({ email });
    const added = await owner.console.post(`/apps/${app.appId}/members`, { email, role: 'MANAGER' });
    expect([added.status, added.body]).toEqual([201, { member: { operatorId: created.id, email, role: 'MANAGER', addedAt: expect.any(String) } }]);
    const listed = (await owner.console.get(`/apps/${app.appId}/members`)).body.invitations as any[];
    expect(listed.map((i) => i.id)).not.toContain(body.invitation.id);
  });
});

// A gateway of its own with SMTP_URL set, pointing at a local SMTP sink.
describe('invitations by e-mail, and guessed links slowed', () => {
  let sink: SmtpSink;
  let stack: ProcessStack;
  let owner: OperatorSession;
  let appId: string;

  beforeAll(async () => {
    sink = await SmtpSink.start({ user: 'gateway', password: 'smtp-password' });
    stack = ownStack('invmail', {
      apps: ['gateway'],
      // Three unknown links per address are free here; a first wait of a minute, so a slowed try is still slowed however slow this machine is.
      appEnv: { gateway: { SMTP_URL: sink.url, SMTP_FROM: 'Acme dashboard <dash@acme.example>', LOGIN_FREE_FAILURES_PER_ADDRESS: '3', LOGIN_FIRST_DELAY_SECONDS: '60' } },
    });
    await stack.start();
    const admin = new ApiClient(`${stack.gatewayUrl}/admin/v1`, stack.options.adminToken);
    appId = (await admin.post('/apps', { name: 'Mailed shop' })).body.app.id;
    const op = await createOperator({ admin });
    await addMember(appId, op.id, 'OWNER', admin);
    owner = await OperatorSession.signIn(op.email, op.password, stack.gatewayUrl);
  }, 60_000);

  afterAll(async () => {
    await removeOwnStack(stack);
    await sink?.close();
  });

  it('e-mails the invitation with its link, which accepts it', async () => {
    const email = newEmail();
    const invited = await owner.console.post(`/apps/${appId}/members`, { email, role: 'MANAGER' });
    expect([invited.status, invited.body.emailDelivery]).toEqual([202, 'SENT']);
    const [mail] = await eventually(
      async () => sink.received().filter((m) => m.to.includes(email)),
      (mails) => mails.length > 0,
    );
    expect(mail).toMatchObject({ from: 'dash@acme.example', subject: `${owner.signedIn.operator.email} invited you to Mailed shop` });
    const link = /https?:\/\/\S+\/dashboard\/invite\/[A-Za-z0-9_-]{43}/.exec(mail!.text)?.[0];
    expect(link).toBe(invited.body.inviteUrl);
    const accepted = await accept(tokenOf(link!), 'from the e-mail link', stack.gatewayUrl);
    expect(accepted.status).toBe(200);
    expect(accepted.body.apps).toEqual([{ id: appId, name: 'Mailed shop', role: 'MANAGER' }]);
  });

  it('loses nothing when the e-mail cannot be sent: the answer has the link and says so', async () => {
    sink.refuse(true);
    try {
      const invited = await owner.console.post(`/apps/${appId}/members`, { email: newEmail(), role: 'VIEWER' });
      expect([invited.status, invited.body.emailDelivery]).toEqual([202, 'FAILED']);
      expect((await anonymous(stack.gatewayUrl).get(`/invitations/${tokenOf(invited.body.inviteUrl)}`)).status).toBe(200);
      // A re-send tries the e-mail again.
      sink.refuse(false);
      const resent = await owner.console.post(`/apps/${appId}/invitations/${invited.body.invitation.id}/resend`);
      expect(resent.body.emailDelivery).toBe('SENT');
    } finally {
      sink.refuse(false);
    }
  });

  it('slows an address trying unknown links after the free ones, real links too, and no other address', async () => {
    const { token } = await invite(owner, appId);
    const guess = () => getFrom(stack.gatewayUrl, '127.0.0.2', `/console/v1/invitations/${randomBytes(32).toString('base64url')}`);
    for (let i = 0; i < 3; i += 1) expect((await guess()).status).toBe(404);
    const slowed = await getFrom(stack.gatewayUrl, '127.0.0.2', `/console/v1/invitations/${token}`);
    expect(slowed.status).toBe(429);
    expect(Number(slowed.retryAfter)).toBeGreaterThan(30);
    expect((await getFrom(stack.gatewayUrl, '127.0.0.1', `/console/v1/invitations/${token}`)).status).toBe(200);
  });
});
