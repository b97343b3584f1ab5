import type { Request, Response } from 'express';
import type { ApiRouter } from '../../http/api-router';
import { ApiError } from '../../http/api-error';
import { contextOf } from '../../http/request-context';
import { id } from '../../openapi/common-schemas';
import { emailAddress, passwordText } from '../../openapi/text-fields';
import { z } from '../../openapi/zod';
import type { OperatorIdentity } from '../access/principal';
import { ConsoleSessionSchema } from '../console-schemas';
import type { AppMembers } from '../members/app-members';
import type { OperatorDirectory } from '../operators/operator-directory';
import { MIN_PASSWORD_LENGTH, verifyNothing, verifyPassword } from '../operators/password-hash';
import type { KnownDevices } from './known-devices';
import type { LoginThrottle, SignInSource } from './login-throttle';
import { clearSessionCookie } from './session-cookie';
import { sessionAnswer, startSession, wrongLogin } from './session-start';
import type { Session, SessionStore } from './session-store';

export interface SessionRouteDeps {
  operators: OperatorDirectory;
  members: AppMembers;
  sessions: SessionStore;
  throttle: LoginThrottle;
  devices: KnownDevices;
}

/** The session a console handler runs in (the console's middleware put it there). */
function sessionOf(res: Response): Session {
  const session = contextOf(res).session;
  if (!session) throw new ApiError(401, 'UNAUTHENTICATED', 'Sign in first.');
  return session;
}

/** The client's address for throttling: the peer, or X-Forwarded-For's client with TRUST_PROXY. */
export const clientAddress = (req: Request) => req.ip ?? req.socket.remoteAddress ?? 'unknown';

/** /console/v1/session: signing in and out, switching apps, changing one's password. */
export function sessionRoutes(api: ApiRouter, { operators, members, sessions, throttle, devices }: SessionRouteDeps): void {
  /** Where a sign-in of this account comes from: the client's address, and the known device its cookie proves. */
  const sourceOf = (req: Request, email: string): SignInSource => ({ address: clientAddress(req), device: devices.deviceOf(req, email) });

  /** The session answer: who, which apps, where they are, and the CSRF token. */
  const answer = (identity: OperatorIdentity, csrfToken: string, current?: string) => sessionAnswer({ operators, members }, identity, csrfToken, current);

  api.route({
    method: 'post',
    path: '/session',
    tag: 'Console',
    summary: 'Sign in',
    description:
      'Starts a session (a new one at every sign-in) and sets its HttpOnly cookie `ris_session`, and `ris_known_device`, which makes this browser ' +
      'known to the account. A wrong email or password is one answer, 401 "Email or password is wrong.", in the same time. ' +
      'Failed sign-ins slow further tries, never lock the owner out: after 5 failures of an account from one address (or one known browser), ' +
      '20 from one address, or 50 of an account from browsers it does not know, each further try waits 1 s, 2 s, 4 s… (at most 15 minutes) ' +
      'after the last failure; a try made earlier is 429 with Retry-After and is not counted. A known browser is counted on its own, ' +
      'so failures of others never keep it out.',
    public: true,
    audit: false,
    body: z.object({ email: emailAddress(), password: passwordText(1) }).openapi('SignInRequest'),
    responses: { 200: { description: 'Signed in; the cookie is set', schema: ConsoleSessionSchema } },
    errors: [401, 403, 429],
    handle: async ({ req, res, body }) => {
      const source = sourceOf(req, body.email);
      await throttle.take(body.email, source);
      const operator = await operators.findByEmail(body.email);
      const right = operator ? await verifyPassword(body.password, operator.passwordHash) : await verifyNothing(body.password);
      if (!operator || !right) throw wrongLogin();
      await throttle.giveBack(body.email, source);
      return { status: 200, body: await startSession({ operators, members, sessions, devices }, req, res, operator, source.device) };
    },
  });

  api.route({
    method: 'get',
    path: '/session',
    tag: 'Console',
    summary: 'The current session',
    responses: { 200: { description: 'Who is signed in, their apps and the CSRF token', schema: ConsoleSessionSchema } },
    handle: async ({ res }) => {
      const session = sessionOf(res);
      return { status: 200, body: await answer(session, session.csrfToken) };
    },
  });

  api.route({
    method: 'get',
    path: '/session/status',
    tag: 'Console',
    summary: 'Whether this browser is signed in',
    description:
      "The dashboard's start-up probe: 200 either way, so being signed out is an answer and not an error a browser logs. " +
      '`session` is what `GET /session` answers while the cookie names a live session (and, like any request, keeps it alive), ' +
      'and null without one: no cookie, or one whose session ended.',
    public: true,
    responses: {
      200: {
        description: 'The session, or null when signed out',
        // A union with null, not .nullable(): the document then says anyOf [ConsoleSession, null], which a null matches.
        schema: z.object({ session: z.union([ConsoleSessionSchema, z.null()]) }).openapi('ConsoleSessionStatus'),
      },
    },
    handle: async ({ res }) => {
      const session = contextOf(res).session;
      return { status: 200, body: { session: session ? await answer(session, session.csrfToken) : null } };
    },
  });

  api.route({
    method: 'delete',
    path: '/session',
    tag: 'Console',
    summary: 'Sign out',
    description: 'Ends the session: its cookie is cleared and answers 401 everywhere from now on.',
    audit: false,
    responses: { 204: { description: 'Signed out' } },
    handle: async ({ req, res }) => {
      await sessions.end(sessionOf(res));
      clearSessionCookie(req, res);
      return { status: 204 };
    },
  });

  api.route({
    method: 'put',
    path: '/session/app',
    tag: 'Console',
    summary: 'Switch to another app',
    description: 'Also where you land at your next sign-in.',
    audit: false,
    body: z.object({ appId: id('An app you may enter') }).openapi('SwitchAppRequest'),
    responses: { 200: { description: 'The session, in that app', schema: ConsoleSessionSchema } },
    handle: async ({ res, body }) => {
      const session = sessionOf(res);
      if (!(await members.roleOf(session, body.appId))) throw new ApiError(403, 'FORBIDDEN', `You are not a member of app ${body.appId}.`);
      await operators.setLastApp(session.operatorId, body.appId);
      return { status: 200, body: await answer(session, session.csrfToken, body.appId) };
    },
  });

  api.route({
    method: 'post',
    path: '/session/password',
    tag: 'Console',
    summary: 'Change your password',
    description:
      `Needs the current password (a wrong one is 422 CURRENT_PASSWORD_WRONG and counts as a failed sign-in); the new one has at least ${MIN_PASSWORD_LENGTH} characters. ` +
      'Every other session of yours ends; this one goes on.',
    audit: false,
    body: z
      .object({ currentPassword: passwordText(1), newPassword: passwordText(MIN_PASSWORD_LENGTH) })
      .openapi('ChangePasswordRequest'),
    responses: { 204: { description: 'Changed' } },
    errors: [422, 429],
    handle: async ({ req, res, body }) => {
      const session = sessionOf(res);
      const source = sourceOf(req, session.email);
      await throttle.take(session.email, source);
      const operator = await operators.findById(session.operatorId);
      if (!operator || !(await verifyPassword(body.currentPassword, operator.passwordHash))) {
        throw new ApiError(422, 'CURRENT_PASSWORD_WRONG', 'The current password is wrong.', {
          issues: [{ field: 'body.currentPassword', message: 'is wrong' }],
        });
      }
      await throttle.giveBack(session.email, source);
      await operators.setPassword(operator._id, body.newPassword);
      await sessions.endAllOf(operator._id, session.hash);
      return { status: 204 };
    },
  });
}
