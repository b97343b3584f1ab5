import type { Request, RequestHandler, Response } from 'express';
import { liveSession, noStore, requireSession } from '../../http/authenticate';
import { contextOf } from '../../http/request-context';
import { changesState, checkCsrf, checkOrigin } from './csrf';
import type { Session, SessionStore } from './session-store';

/** Signing in is a console change without a session (it makes one). */
const isSignIn = (req: Request) => req.method === 'POST' && /^\/session\/?$/i.test(req.path);

/** An invitation's link, read and accepted by someone without an account yet (accepting makes one, and signs in). */
const isInvitationLink = (req: Request) => /^\/invitations\/[^/]+(?:\/accept)?\/?$/i.test(req.path);

/** The dashboard's "who am I" probe answers with or without a session (signed out is an answer, not an error). */
const isSessionProbe = (req: Request) => req.method === 'GET' && /^\/session\/status\/?$/i.test(req.path);

/** The request runs in this session, as its operator. */
function enter(res: Response, session: Session): void {
  const context = contextOf(res);
  context.session = session;
  context.operator = { operatorId: session.operatorId, email: session.email, isAdmin: session.isAdmin };
}

/**
 * Guards /console/v1: every answer is not to be stored; every request but
 * signing in, the session probe and an invitation's link needs a live
 * session (401), and a change also the session's CSRF token and no foreign
 * Origin (403). Signing in and accepting an invitation are refused from a
 * foreign Origin too: another site must not sign a browser in to an
 * account of its choosing.
 */
export function consoleSession(sessions: SessionStore): RequestHandler {
  return async (req, res, next) => {
    noStore(res);
    if (isSignIn(req) || isInvitationLink(req)) {
      if (changesState(req.method)) checkOrigin(req);
      return next();
    }
    if (isSessionProbe(req)) {
      const session = await liveSession(req, sessions);
      if (session) enter(res, session);
      return next();
    }
    const session = await requireSession(req, sessions);
    if (changesState(req.method)) checkCsrf(req, session);
    enter(res, session);
    next();
  };
}
