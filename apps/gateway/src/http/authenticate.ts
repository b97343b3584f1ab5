import { timingSafeEqual, createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { AppMembers } from '../console/members/app-members';
import { changesState, checkCsrf } from '../console/sessions/csrf';
import { sessionIdOf } from '../console/sessions/session-cookie';
import type { Session, SessionStore } from '../console/sessions/session-store';
import type { AppDirectory } from '../tenancy/app-directory';
import { ApiError, validationError } from './api-error';
import { contextOf } from './request-context';

/** The token of an `Authorization: Bearer <token>` header. */
export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match ? match[1] : null;
}

const unauthenticated = (message: string) =>
  new ApiError(401, 'UNAUTHENTICATED', message, undefined, { 'WWW-Authenticate': 'Bearer' });

/** Answers made with a session hold an operator's view of an app's data: never kept by a browser or a proxy. */
export const noStore = (res: Response) => res.setHeader('Cache-Control', 'no-store');

/** The live session of the request's cookie (kept alive by this request), or null: no cookie, or one that ended. */
export async function liveSession(req: Request, sessions: SessionStore): Promise<Session | null> {
  const id = sessionIdOf(req);
  return id === undefined ? null : sessions.touch(id);
}

/** The live session of the request's cookie, or 401. */
export async function requireSession(req: Request, sessions: SessionStore): Promise<Session> {
  const session = await liveSession(req, sessions);
  if (!session) throw unauthenticated('Your session has ended or is unknown: sign in again.');
  return session;
}

/**
 * Who calls /api/v1, as res.locals.principal:
 * - `Authorization: Bearer <API key>`: the key's app (an app's backend, full
 *   access to its app), exactly as before sessions existed: one cached
 *   lookup, no other round trip;
 * - else the dashboard's session cookie with `X-App-Id`: the operator, in
 *   that app, with their role there (403 when they are not a member), and
 *   for a change the session's CSRF token (403 without it).
 * 401 without either.
 */
export function authenticateApi(directory: AppDirectory, sessions: SessionStore, members: AppMembers): RequestHandler {
  return async (req, res, next) => {
    const authorization = req.header('authorization');
    if (authorization !== undefined || sessionIdOf(req) === undefined) {
      const token = bearerToken(authorization);
      if (!token) return next(unauthenticated('Send your API key as Authorization: Bearer <API_KEY>.'));
      const principal = await directory.authenticate(token);
      if (!principal) return next(unauthenticated('The API key is unknown, malformed or revoked.'));
      res.locals.principal = principal;
      res.locals.appId = principal.appId;
      return next();
    }
    noStore(res);
    const session = await requireSession(req, sessions);
    if (changesState(req.method)) checkCsrf(req, session);
    const appId = req.header('x-app-id');
    if (!appId) {
      throw validationError('header.X-App-Id: name the app to act in (one you are a member of) with X-App-Id.', {
        issues: [{ field: 'header.X-App-Id', message: 'required with a session' }],
      });
    }
    const operator = { operatorId: session.operatorId, email: session.email, isAdmin: session.isAdmin };
    const role = await members.roleOf(operator, appId);
    if (!role) throw new ApiError(403, 'FORBIDDEN', `You are not a member of app ${appId.slice(0, 128)}.`);
    const context = contextOf(res);
    context.session = session;
    context.operator = operator;
    context.principal = { kind: 'operator', appId, role, ...operator };
    context.appId = appId;
    next();
  };
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Guards /admin/v1 with the ADMIN_TOKEN setting (compared in constant time). */
export function authenticateAdmin(adminToken: string): RequestHandler {
  const expected = digest(adminToken);
  return (req, _res, next) => {
    const token = bearerToken(req.header('authorization'));
    if (!token || !timingSafeEqual(digest(token), expected)) {
      return next(unauthenticated('The admin API needs Authorization: Bearer <ADMIN_TOKEN>.'));
    }
    next();
  };
}
