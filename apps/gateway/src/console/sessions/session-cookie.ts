import type { Request, Response } from 'express';
import { cookieValue } from '../../http/request-cookie';

export const SESSION_COOKIE = 'ris_session';

/** The session id a request's Cookie header carries, if any (the first `ris_session`). */
export function sessionIdOf(req: Request): string | undefined {
  return cookieValue(req, SESSION_COOKIE);
}

/**
 * The cookie of a new session: HttpOnly (no script reads it), SameSite=Strict
 * (no other site's page sends it), Secure when the request came over https
 * (`req.secure`, behind a proxy with TRUST_PROXY), for the whole origin, and
 * for the session's longest life.
 */
export function setSessionCookie(req: Request, res: Response, id: string, maxAgeMs: number): void {
  res.cookie(SESSION_COOKIE, id, { httpOnly: true, sameSite: 'strict', secure: req.secure, path: '/', maxAge: maxAgeMs });
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'strict', secure: req.secure, path: '/' });
}
