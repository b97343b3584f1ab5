import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { ApiError } from '../../http/api-error';
import type { Session } from './session-store';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const changesState = (method: string): boolean => !SAFE_METHODS.has(method);

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The host[:port] of an Origin header, or null when it names none ("null", garbage). */
function originHost(origin: string): string | null {
  try {
    return new URL(origin).host.toLowerCase() || null;
  } catch {
    return null;
  }
}

/**
 * Refuses a request whose Origin header (when the browser sent one) is not
 * this server: a page of another site may make a browser send a form or a
 * fetch here, and says where it comes from. The host (and port) is what is
 * compared, not the scheme: behind a proxy that ends TLS without
 * TRUST_PROXY the gateway sees http for an https page of its own, and an
 * attacker's page cannot have this server's host anyway.
 */
export function checkOrigin(req: Request): void {
  const origin = req.header('origin');
  if (origin === undefined) return;
  if (originHost(origin) !== req.host.toLowerCase()) {
    throw new ApiError(403, 'ORIGIN_NOT_ALLOWED', `Requests from ${origin.slice(0, 200)} may not change anything here.`);
  }
}

/**
 * A state-changing request made with a session must prove it comes from
 * the dashboard: the session's CSRF token in X-CSRF-Token (which only a
 * page of this origin can read, from the session answer), compared in
 * constant time, and no foreign Origin.
 */
export function checkCsrf(req: Request, session: Session): void {
  checkOrigin(req);
  const sent = req.header('x-csrf-token');
  if (sent === undefined || !timingSafeEqual(digest(sent), digest(session.csrfToken))) {
    throw new ApiError(403, 'CSRF_TOKEN_INVALID', 'Send the csrfToken of your session as X-CSRF-Token with every change.');
  }
}
