import { MemberSchema, RoleName } from '../console/console-schemas';
import type { AppMembers } from '../console/members/app-members';
import type { OperatorRecord } from '../console/operators/operator.model';
import type { OperatorDirectory } from '../console/operators/operator-directory';
import { MIN_PASSWORD_LENGTH, generatePassword } from '../console/operators/password-hash';
import type { SessionStore } from '../console/sessions/session-store';
import type { ApiRouter } from '../http/api-router';
import { ApiError } from '../http/api-error';
import { Pagination, id, pageQuery, pagination, timestamp } from '../openapi/common-schemas';
import { emailAddress, passwordText } from '../openapi/text-fields';
import { z } from '../openapi/zod';

const AdminOperator = z
  .object({ id: z.string(), email: z.string(), isAdmin: z.boolean(), createdAt: timestamp, passwordChangedAt: timestamp })
  .openapi('AdminOperator');

const operatorJson = (o: OperatorRecord) => ({
  id: o._id,
  email: o.email,
  isAdmin: o.isAdmin,
  createdAt: o.createdAt.toISOString(),
  passwordChangedAt: o.passwordChangedAt.toISOString(),
});

const NewPassword = passwordText(MIN_PASSWORD_LENGTH).openapi({ description: `At least ${MIN_PASSWORD_LENGTH} characters. Absent: one is generated and shown once in the answer.` });

export interface AdminOperatorDeps {
  operators: OperatorDirectory;
  members: AppMembers;
  sessions: SessionStore;
}

/** /admin/v1: operator accounts of the dashboard and their place in apps, for whoever holds ADMIN_TOKEN. */
export function adminOperatorRoutes(api: ApiRouter, { operators, members, sessions }: AdminOperatorDeps): void {
  api.route({
    method: 'post',
    path: '/operators',
    tag: 'Admin',
    summary: 'Create an operator (a dashboard account)',
    description: 'isAdmin makes an instance administrator (every app as OWNER; creates apps). 409 ALREADY_EXISTS when the email has an account.',
    body: z
      .object({ email: emailAddress(), password: NewPassword.optional(), isAdmin: z.boolean().optional() })
      .openapi('CreateOperatorRequest'),
    responses: {
      201: {
        description: 'Created',
        schema: z
          .object({
            operator: AdminOperator,
            initialPassword: z.string().optional().openapi({ description: 'The generated password when none was sent, shown only here.' }),
          })
          .openapi('CreateOperatorResponse'),
        links: {
          ResetPassword: { method: 'post', path: '/operators/:operatorId/password', parameters: { operatorId: '$response.body#/operator/id' } },
        },
      },
    },
    errors: [409],
    handle: async ({ body }) => {
      const password = body.password ?? generatePassword();
      const operator = await operators.create({ email: body.email, password, isAdmin: body.isAdmin ?? false });
      if (!operator) throw new ApiError(409, 'ALREADY_EXISTS', `An operator with email ${body.email} exists already.`);
      return { status: 201, body: { operator: operatorJson(operator), ...(body.password ? {} : { initialPassword: password }) } };
    },
  });

  api.route({
    method: 'get',
    path: '/operators',
    tag: 'Admin',
    summary: 'List operators, newest first',
    query: z.object({ ...pageQuery, email: emailAddress().optional().openapi({ description: 'Only the operator with this email' }) }),
    responses: {
      200: { description: 'A page of operators', schema: z.object({ operators: z.array(AdminOperator), pagination: Pagination }).openapi('AdminOperatorList') },
    },
    handle: async ({ query }) => {
      const page = await operators.list(query, query.email);
      return { status: 200, body: { operators: page.items.map(operatorJson), pagination: pagination(query, page) } };
    },
  });

  api.route({
    method: 'post',
    path: '/operators/:operatorId/password',
    tag: 'Admin',
    summary: "Reset an operator's password",
    description: 'Every session of the operator ends. Without a password one is generated and shown once in the answer.',
    params: z.object({ operatorId: id('Operator id') }),
    body: z.object({ password: NewPassword.optional() }).openapi('ResetPasswordRequest'),
    responses: {
      200: {
        description: 'Reset',
        schema: z
          .object({ operator: AdminOperator, password: z.string().optional().openapi({ description: 'The generated password when none was sent, shown only here.' }) })
          .openapi('ResetPasswordResponse'),
      },
    },
    errors: [404],
    handle: async ({ params, body }) => {
      const password = body.password ?? generatePassword();
      const operator = await operators.setPassword(params.operatorId, password);
      if (!operator) throw new ApiError(404, 'NOT_FOUND', `Operator ${params.operatorId} not found`);
      await sessions.endAllOf(operator._id);
      return { status: 200, body: { operator: operatorJson(operator), ...(body.password ? {} : { password }) } };
    },
  });

  api.route({
    method: 'put',
    path: '/apps/:appId/members/:operatorId',
    tag: 'Admin',
    summary: "Make an operator a member of an app, or change their role there",
    description: 'An app keeps at least one OWNER: demoting the last one is 409 LAST_OWNER.',
    params: z.object({ appId: id('App id'), operatorId: id('Operator id') }),
    body: z.object({ role: RoleName }).openapi('PutMemberRequest'),
    responses: { 200: { description: 'The member', schema: z.object({ member: MemberSchema }) } },
    errors: [404, 409],
    handle: async ({ params, body }) => {
      const operator = await operators.findById(params.operatorId);
      if (!operator) throw new ApiError(404, 'NOT_FOUND', `Operator ${params.operatorId} not found`);
      const member = await members.put(params.appId, operator._id, body.role);
      return {
        status: 200,
        body: { member: { operatorId: member.operatorId, email: operator.email, role: member.role, addedAt: member.addedAt.toISOString() } },
      };
    },
  });
}
