import type { ApiRouter } from '../../http/api-router';
import { ApiError } from '../../http/api-error';
import { id } from '../../openapi/common-schemas';
import { emailAddress } from '../../openapi/text-fields';
import { z } from '../../openapi/zod';
import type { MemberRecord } from '../../tenancy/app.model';
import { MemberSchema, RoleName } from '../console-schemas';
import type { OperatorDirectory } from '../operators/operator-directory';
import { generatePassword } from '../operators/password-hash';
import type { AppMembers } from './app-members';

const appParams = z.object({ appId: id('App id') });
const memberParams = z.object({ appId: id('App id'), operatorId: id('Operator id') });
const MemberEnvelope = z.object({ member: MemberSchema }).openapi('AppMemberEnvelope');
const memberLink = { appId: '$request.path.appId', operatorId: '$response.body#/member/operatorId' };

const memberJson = (m: MemberRecord, email: string) => ({ operatorId: m.operatorId, email, role: m.role, addedAt: m.addedAt.toISOString() });

/** /console/v1/apps/{appId}/members: who works in an app and with which role (OWNER only). */
export function memberRoutes(api: ApiRouter, { members, operators }: { members: AppMembers; operators: OperatorDirectory }): void {
  const emailOf = async (operatorId: string) => (await operators.findById(operatorId))?.email ?? '';

  api.route({
    method: 'get',
    path: '/apps/:appId/members',
    tag: 'Console',
    summary: "List the app's members",
    role: 'OWNER',
    params: appParams,
    responses: { 200: { description: 'Members, in the order they were added', schema: z.object({ members: z.array(MemberSchema) }).openapi('AppMemberList') } },
    handle: async ({ appId }) => {
      const list = (await members.list(appId)) ?? [];
      const byId = await operators.byIds(list.map((m) => m.operatorId));
      return { status: 200, body: { members: list.map((m) => memberJson(m, byId.get(m.operatorId)?.email ?? '')) } };
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
      'Adds the operator with this email; one without an account yet is created with a one-time password, shown only in this ' +
      'answer (`initialPassword`): hand it over, they sign in with it and change it. 409 ALREADY_EXISTS for a member.',
    role: 'OWNER',
    auditReadRole: 'OWNER',
    params: appParams,
    body: z.object({ email: emailAddress(), role: RoleName }).openapi('AddMemberRequest'),
    responses: {
      201: {
        description: 'Added',
        schema: z
          .object({
            member: MemberSchema,
            initialPassword: z.string().optional().openapi({ description: 'Only when the operator was created now: their password, shown only here.' }),
          })
          .openapi('AddMemberResponse'),
        links: {
          GetMember: { method: 'get', path: '/apps/:appId/members/:operatorId', parameters: memberLink },
          ChangeRole: { method: 'patch', path: '/apps/:appId/members/:operatorId', parameters: memberLink },
          RemoveMember: { method: 'delete', path: '/apps/:appId/members/:operatorId', parameters: memberLink },
        },
      },
    },
    errors: [409],
    handle: async ({ appId, body }) => {
      let operator = await operators.findByEmail(body.email);
      let initialPassword: string | undefined;
      if (!operator) {
        initialPassword = generatePassword();
        // Two invitations of one new address at once: the unique email decides, the other adds the one made.
        operator = (await operators.create({ email: body.email, password: initialPassword, isAdmin: false })) ?? (await operators.findByEmail(body.email));
        if (!operator) throw new ApiError(503, 'UNAVAILABLE', 'The operator could not be created; retry.');
      }
      const member = await members.add(appId, operator._id, body.role);
      return {
        status: 201,
        body: { member: memberJson(member, operator.email), ...(initialPassword ? { initialPassword } : {}) },
        audit: { target: { type: 'member', id: operator._id } },
      };
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
