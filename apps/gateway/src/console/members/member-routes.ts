import type { ApiRouter } from '../../http/api-router';
import { ApiError } from '../../http/api-error';
import { contextOf } from '../../http/request-context';
import { id } from '../../openapi/common-schemas';
import { emailAddress } from '../../openapi/text-fields';
import { z } from '../../openapi/zod';
import type { MemberRecord } from '../../tenancy/app.model';
import { MemberSchema, RoleName } from '../console-schemas';
import type { InvitationDelivery } from '../invitations/invitation-delivery';
import { InvitationSchema, IssuedInvitationSchema, invitationJson } from '../invitations/invitation-shape';
import type { MemberInvitations } from '../invitations/member-invitations';
import type { OperatorDirectory } from '../operators/operator-directory';
import type { AppMembers } from './app-members';

export interface MemberRouteDeps {
  members: AppMembers;
  operators: OperatorDirectory;
  invitations: MemberInvitations;
  delivery: InvitationDelivery;
}

const appParams = z.object({ appId: id('App id') });
const memberParams = z.object({ appId: id('App id'), operatorId: id('Operator id') });
const MemberEnvelope = z.object({ member: MemberSchema }).openapi('AppMemberEnvelope');
const memberLink = { appId: '$request.path.appId', operatorId: '$response.body#/member/operatorId' };
const invitationLink = { appId: '$request.path.appId', invitationId: '$response.body#/invitation/id' };

/** A member as the console answers it. */
export const memberJson = (m: MemberRecord, email: string) => ({ operatorId: m.operatorId, email, role: m.role, addedAt: m.addedAt.toISOString() });

/** /console/v1/apps/{appId}/members: who works in an app and with which role, and who is invited (OWNER only). */
export function memberRoutes(api: ApiRouter, { members, operators, invitations, delivery }: MemberRouteDeps): void {
  const emailOf = async (operatorId: string) => (await operators.findById(operatorId))?.email ?? '';

  api.route({
    method: 'get',
    path: '/apps/:appId/members',
    tag: 'Console',
    summary: "List the app's members",
    role: 'OWNER',
    params: appParams,
    description: 'With the invitations not accepted or revoked yet (expired ones too, until re-sent or revoked).',
    responses: {
      200: {
        description: 'Members, in the order they were added, and open invitations, in the order they were made',
        schema: z.object({ members: z.array(MemberSchema), invitations: z.array(InvitationSchema) }).openapi('AppMemberList'),
      },
    },
    handle: async ({ appId }) => {
      const [list, invited] = await Promise.all([members.list(appId), invitations.list(appId)]);
      const byId = await operators.byIds((list ?? []).map((m) => m.operatorId));
      const now = new Date();
      return {
        status: 200,
        body: { members: (list ?? []).map((m) => memberJson(m, byId.get(m.operatorId)?.email ?? '')), invitations: invited.map((i) => invitationJson(i, now)) },
      };
    },
  });

  api.route({
    method: 'get',
    path: '/apps/:appId/members/:operatorId',
    tag: 'Console',
    summary: 'Get a member',
    role: 'OWNER',
    params: memberParams,
    responses: { 200: { description: 'The member', schema: MemberEnvelope } },
    errors: [404],
    handle: async ({ appId, params }) => {
      const member = await members.get(appId, params.operatorId);
      if (!member) throw new ApiError(404, 'NOT_FOUND', `Operator ${params.operatorId} is not a member of this app.`);
      return { status: 200, body: { member: memberJson(member, await emailOf(member.operatorId)) } };
    },
  });

  api.route({
    method: 'post',
    path: '/apps/:appId/members',
    tag: 'Console',
    summary: 'Add a member (invite)',
    description:
      'An operator who has an account is added at once (201, `member`). An address without one is invited (202, `IssuedInvitation`): ' +
      'a one-time link that makes the account with a password of their choosing and the membership with this role, shown only in ' +
      'this answer (`inviteUrl`) and e-mailed when SMTP is configured (`emailDelivery`); it expires after the invitation lifetime ' +
      '(7 days by default). 409 ALREADY_EXISTS for a member, or an address invited already (re-send or revoke that invitation).',
    role: 'OWNER',
    auditReadRole: 'OWNER',
    params: appParams,
    body: z.object({ email: emailAddress(), role: RoleName }).openapi('AddMemberRequest'),
    responses: {
      201: {
        description: 'Added: the address has an account',
        schema: z.object({ member: MemberSchema }).openapi('AddMemberResponse'),
        links: {
          GetMember: { method: 'get', path: '/apps/:appId/members/:operatorId', parameters: memberLink },
          ChangeRole: { method: 'patch', path: '/apps/:appId/members/:operatorId', parameters: memberLink },
          RemoveMember: { method: 'delete', path: '/apps/:appId/members/:operatorId', parameters: memberLink },
        },
      },
      202: {
        description: 'Invited: the address has no account yet; they become a member when they accept through the link',
        schema: IssuedInvitationSchema,
        links: {
          GetInvitation: { method: 'get', path: '/apps/:appId/invitations/:invitationId', parameters: invitationLink },
          ResendInvitation: { method: 'post', path: '/apps/:appId/invitations/:invitationId/resend', parameters: invitationLink },
          RevokeInvitation: { method: 'delete', path: '/apps/:appId/invitations/:invitationId', parameters: invitationLink },
        },
      },
    },
    errors: [409],
    handle: async ({ appId, body, req, res }) => {
      const operator = await operators.findByEmail(body.email);
      if (!operator) {
        const issued = await invitations.create(appId, body.email, body.role, contextOf(res).operator!);
        if (!issued) throw new ApiError(409, 'ALREADY_EXISTS', `${body.email} is invited already: re-send or revoke that invitation.`);
        return { status: 202, body: await delivery.deliver(req, issued), audit: { target: { type: 'invitation', id: issued.invitation._id } } };
      }
      const member = await members.add(appId, operator._id, body.role);
      // An invitation of the address made before it had an account is no longer needed.
      await invitations.dropFor(appId, operator.email);
      return { status: 201, body: { member: memberJson(member, operator.email) }, audit: { target: { type: 'member', id: operator._id } } };
    },
  });

  api.route({
    method: 'patch',
    path: '/apps/:appId/members/:operatorId',
    tag: 'Console',
    summary: "Change a member's role",
    description: 'An app keeps at least one OWNER: demoting the last one is 409 LAST_OWNER.',
    role: 'OWNER',
    auditReadRole: 'OWNER',
    params: memberParams,
    body: z.object({ role: RoleName }).openapi('ChangeMemberRoleRequest'),
    responses: { 200: { description: 'The member', schema: MemberEnvelope } },
    errors: [404, 409],
    handle: async ({ appId, params, body }) => {
      const member = await members.setRole(appId, params.operatorId, body.role);
      return { status: 200, body: { member: memberJson(member, await emailOf(member.operatorId)) } };
    },
  });

  api.route({
    method: 'delete',
    path: '/apps/:appId/members/:operatorId',
    tag: 'Console',
    summary: 'Remove a member',
    description: 'They can no longer enter the app (at once). An app keeps at least one OWNER: removing the last one is 409 LAST_OWNER.',
    role: 'OWNER',
    auditReadRole: 'OWNER',
    params: memberParams,
    responses: { 204: { description: 'Removed' } },
    errors: [404, 409],
    handle: async ({ appId, params }) => {
      await members.remove(appId, params.operatorId);
      return { status: 204 };
    },
  });
}
