import type { Request, Response } from 'express';
import { ApiError } from '../../http/api-error';
import type { OperatorIdentity } from '../access/principal';
import type { AppMembers } from '../members/app-members';
import type { OperatorDirectory } from '../operators/operator-directory';
import type { OperatorRecord } from '../operators/operator.model';
import type { KnownDevices } from './known-devices';
import { setSessionCookie } from './session-cookie';
import type { SessionStore } from './session-store';

export interface SessionStartDeps {
  operators: OperatorDirectory;
  members: AppMembers;
  sessions: SessionStore;
  devices: KnownDevices;
}

export const wrongLogin = () => new ApiError(401, 'UNAUTHENTICATED', 'Email or password is wrong.');

/** The session answer (ConsoleSession): who, which apps, where they are (`current`, else the app used last), and the CSRF token. */
export async function sessionAnswer({ operators, members }: Pick<SessionStartDeps, 'operators' | 'members'>, identity: OperatorIdentity, csrfToken: string, current?: string) {
  const [operator, apps] = await Promise.all([operators.findById(identity.operatorId), members.appsOf(identity)]);
  const wanted = current ?? operator?.lastAppId ?? undefined;
  return {
    operator: { id: identity.operatorId, email: identity.email, isAdmin: identity.isAdmin },
    apps,
    currentAppId: apps.find((a) => a.id === wanted)?.id ?? apps[0]?.id ?? null,
    csrfToken,
  };
}

/**
 * Signs in an operator whose password was just proven (a sign-in, an
 * accepted invitation): a new session and its cookie, this browser known
 * to the account from now on, and the session answer, in `appId` when
 * given (else the app used last).
 */
export async function startSession(deps: SessionStartDeps, req: Request, res: Response, operator: OperatorRecord, device: string | null, appId?: string) {
  const { operators, sessions, devices } = deps;
  const identity = { operatorId: operator._id, email: operator.email, isAdmin: operator.isAdmin };
  const { id: sessionId, session } = await sessions.create(identity);
  // A password reset between the check and now ended every session but this one: end it too.
  const now = await operators.findById(operator._id);
  if (!now || now.passwordChangedAt.getTime() !== operator.passwordChangedAt.getTime()) {
    await sessions.end(session);
    throw wrongLogin();
  }
  setSessionCookie(req, res, sessionId, sessions.lifetimes.maxAgeMs);
  devices.remember(req, res, operator.email, device);
  return sessionAnswer(deps, identity, session.csrfToken, appId);
}
