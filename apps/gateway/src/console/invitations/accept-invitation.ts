import type { Logger } from '@ris/logging';
import { ApiError } from '../../http/api-error';
import { toErrorResponse } from '../../http/error-response';
import type { MemberRecord } from '../../tenancy/app.model';
import type { AuditTrail } from '../audit/audit-trail';
import type { AppMembers } from '../members/app-members';
import { memberJson } from '../members/member-routes';
import type { OperatorDirectory } from '../operators/operator-directory';
import type { OperatorRecord } from '../operators/operator.model';
import { verifyPassword } from '../operators/password-hash';
import type { LoginThrottle, SignInSource } from '../sessions/login-throttle';
import type { InvitationRecord } from './invitation.model';
import type { MemberInvitations } from './member-invitations';

export interface AcceptanceDeps {
  invitations: MemberInvitations;
  operators: OperatorDirectory;
  members: AppMembers;
  throttle: LoginThrottle;
  audit: AuditTrail;
  logger: Logger;
}

/** The one answer for a link that cannot be used, whatever the reason: a link tells its holder nothing else. */
export const linkNotValid = () => new ApiError(404, 'NOT_FOUND', 'This invitation link is not valid: it is unknown, used, revoked or expired.');

/** The audit log's name for an acceptance (a route without a session: recorded here rather than by the router). */
const ACCEPT_ACTION = 'POST /console/v1/invitations/{token}/accept';

/**
 * Accepts an invitation read from its link, once: its address's account,
 * new with `password` (its password from now on), or, when the address got
 * an account since it was invited (another app's invitation, the admin
 * API), that account proven by its password (a wrong one counts as a
 * failed sign-in); then the membership with the invited role. The
 * invitation is taken (deleted) before anything is made, so of concurrent
 * acceptances exactly one makes anything; if what follows fails, it is put
 * back so that the link works again.
 */
export async function acceptInvitation(
  deps: AcceptanceDeps,
  invitation: InvitationRecord,
  password: string,
  source: SignInSource,
): Promise<{ operator: OperatorRecord; member: MemberRecord }> {
  const { invitations, operators } = deps;
  const existing = await operators.findByEmail(invitation.email);
  if (existing) await provePassword(deps.throttle, existing, password, source);
  if (!(await invitations.take(invitation))) throw linkNotValid();
  try {
    const operator = existing ?? (await operators.create({ email: invitation.email, password, isAdmin: false }));
    // Another invitation of this address (another app's) made its account a moment ago.
    if (!operator) throw new ApiError(409, 'CONFLICT', 'An account for this address was made a moment ago: open the link again and enter its password.');
    return { operator, member: await join(deps, invitation, operator) };
  } catch (err) {
    await invitations.restore(invitation).catch((restoreErr: unknown) => {
      deps.logger.error({ err: restoreErr, invitationId: invitation._id }, 'could not put back an invitation whose acceptance failed');
    });
    throw err;
  }
}

async function provePassword(throttle: LoginThrottle, operator: OperatorRecord, password: string, source: SignInSource): Promise<void> {
  await throttle.take(operator.email, source);
  if (!(await verifyPassword(password, operator.passwordHash))) {
    throw new ApiError(422, 'PASSWORD_WRONG', 'This address has an account: enter its password to accept.', {
      issues: [{ field: 'body.password', message: 'is not the password of the account of this address' }],
    });
  }
  await throttle.giveBack(operator.email, source);
}

/**
 * The membership, audited in the app as the new member's change. One who
 * is a member already (added by an OWNER since) keeps their role: the
 * invitation is used up all the same.
 */
async function join({ members, audit }: AcceptanceDeps, invitation: InvitationRecord, operator: OperatorRecord): Promise<MemberRecord> {
  const recording = await audit.begin({
    appId: invitation.appId,
    operator: { operatorId: operator._id, email: operator.email, isAdmin: operator.isAdmin },
    action: ACCEPT_ACTION,
    summary: 'Accept an invitation',
    target: { type: 'member', id: operator._id },
    before: { invitation: { id: invitation._id, email: invitation.email, role: invitation.role, invitedBy: invitation.invitedByEmail } },
    readRole: 'OWNER',
  });
  try {
    const member =
      (await members.get(invitation.appId, operator._id)) ?? (await members.add(invitation.appId, operator._id, invitation.role));
    await recording.succeeded({ member: memberJson(member, operator.email) }, {});
    return member;
  } catch (err) {
    await (toErrorResponse(err).status >= 500 ? recording.unknown() : recording.discard());
    throw err;
  }
}
