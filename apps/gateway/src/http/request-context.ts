import type { Response } from 'express';
import type { OperatorIdentity, Principal } from '../console/access/principal';
import type { Session } from '../console/sessions/session-store';
import type { EmbedClaims } from '../embed/embed-token';

/**
 * What the middleware learned about a request, on res.locals, typed in
 * one place: who is calling (authenticate.ts, the console's session
 * middleware) and, for an app's request, which app.
 */
export interface RequestContext {
  requestId: string;
  /** The app the request acts in (an API key's, or a session's X-App-Id). */
  appId?: string;
  principal?: Principal;
  /** The signed-in operator, when the request came with a session. */
  operator?: OperatorIdentity;
  session?: Session;
  /** The referral widget's token, on /embed/v1 (what it may read). */
  embed?: EmbedClaims;
}

export const contextOf = (res: Response): RequestContext => res.locals as RequestContext;
