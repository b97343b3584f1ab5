import type { ApiRouter } from '../../http/api-router';
import { ApiError } from '../../http/api-error';
import { id } from '../../openapi/common-schemas';
import { z } from '../../openapi/zod';
import type { InvitationDelivery } from './invitation-delivery';
import { IssuedInvitationSchema, InvitationSchema, invitationJson } from './invitation-shape';
import type { MemberInvitations } from './member-invitations';

const invitationParams = z.object({ appId: id('App id'), invitationId: id('Invitation id') });
const noSuchInvitation = (invitationId: string) => new ApiError(404, 'NOT_FOUND', `No open invitation ${invitationId} in this app.`);

/** /console/v1/apps/{appId}/invitations/{invitationId}: an OWNER's open invitations (they are listed with the members). */
export function invitationRoutes(api: ApiRouter, { invitations, delivery }: { invitations: MemberInvitations; delivery: InvitationDelivery }): void {
  api.route({
    method: 'get',
    path: '/apps/:appId/invitations/:invitationId',
    tag: 'Console',
    summary: 'Get an invitation',
    description: 'An invitation not accepted or revoked yet (EXPIRED once its link no longer works). Its link is never shown again.',
    role: 'OWNER',
    params: invitationParams,
    responses: { 200: { description: 'The invitation', schema: z.object({ invitation: InvitationSchema }).openapi('AppInvitationEnvelope') } },
    errors: [404],
    handle: async ({ appId, params }) => {
      const invitation = await invitations.findById(appId, params.invitationId);
      if (!invitation) throw noSuchInvitation(params.invitationId);
      return { status: 200, body: { invitation: invitationJson(invitation) } };
    },
  });

  api.route({
    method: 'delete',
    path: '/apps/:appId/invitations/:invitationId',
    tag: 'Console',
    summary: 'Revoke an invitation',
    description: 'Its link is dead at once (the link answers 404, as an unknown one does).',
    role: 'OWNER',
    auditReadRole: 'OWNER',
    params: invitationParams,
    responses: { 204: { description: 'Revoked' } },
    errors: [404],
    handle: async ({ appId, params }) => {
      if (!(await invitations.revoke(appId, params.invitationId))) throw noSuchInvitation(params.invitationId);
      return { status: 204 };
    },
  });

  api.route({
    method: 'post',
    path: '/apps/:appId/invitations/:invitationId/resend',
    tag: 'Console',
    summary: 'Re-send an invitation',
    description:
      'A new link, which works for the invitation lifetime from now (an expired invitation too); the link before it is dead. ' +
      'Shown only in this answer, and e-mailed again when SMTP is configured.',
    role: 'OWNER',
    auditReadRole: 'OWNER',
    params: invitationParams,
    responses: { 200: { description: 'The new link', schema: IssuedInvitationSchema } },
    errors: [404],
    handle: async ({ appId, params, req }) => {
      const issued = await invitations.renew(appId, params.invitationId);
      if (!issued) throw noSuchInvitation(params.invitationId);
      return { status: 200, body: await delivery.deliver(req, issued) };
    },
  });
}
