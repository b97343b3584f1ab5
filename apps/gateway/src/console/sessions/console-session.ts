import type { Request, RequestHandler } from 'express';
import { noStore, requireSession } from '../../http/authenticate';
import { contextOf } from '../../http/request-context';
import { changesState, checkCsrf, checkOrigin } from './csrf';
import type { SessionStore } from './session-store';

/** Signing in is the one console request without a session (it makes one). */
const isSignIn = (req: Request) => req.method === 'POST' && /^\/session\/?$/i.test(req.path);

/**
 * Guards /console/v1: every answer is not to be stored; every request but
 * signing in needs a live session (401), and a change also the session's
 * CSRF token and no foreign Origin (403). Signing in is refused from a
 * foreign Origin too: another site must not sign a browser in to an
 * account of its choosing.
 */
export function consoleSession(sessions: SessionStore): RequestHandler {
  return async (req, res, next) => {
    noStore(res);
    if (isSignIn(req)) {
      checkOrigin(req);
      return next();
    }
    const session = await requireSession(req, sessions);
    if (changesState(req.method)) checkCsrf(req, session);
    const context = contextOf(res);
    context.session = session;
    context.operator = { operatorId: session.operatorId, email: session.email, isAdmin: session.isAdmin };
    next();
  };
}
