import type { Request } from 'express';
import type { ApiRouter } from '../../http/api-router';
import { passwordText } from '../../openapi/text-fields';
import { timestamp } from '../../openapi/common-schemas';
import { z } from '../../openapi/zod';
import type { AppDirectory } from '../../tenancy/app-directory';
import { ConsoleSessionSchema, RoleName } from '../console-schemas';
import { MIN_PASSWORD_LENGTH } from '../operators/password-hash';
import { clientAddress } from '../sessions/session-routes';
import { startSession, type SessionStartDeps } from '../sessions/session-start';
import { acceptInvitation, linkNotValid, type AcceptanceDeps } from './accept-invitation';
import type { InvitationGuesses } from './invitation-guesses';
import { INVITATION_TOKEN_PATTERN } from './invitation-token';
import type { InvitationRecord } from './invitation.model';

export type InvitationLinkDeps = AcceptanceDeps & SessionStartDeps & { guesses: InvitationGuesses; directory: AppDirectory };

const tokenParams = z.object({
  token: z
    .string()
    .regex(new RegExp(INVITATION_TOKEN_PATTERN), 'must be the 43 characters of an invitation link')
    .openapi({ description: "The invitation link's token (`/dashboard/invite/<token>`)", pattern: INVITATION_TOKEN_PATTERN, minLength: 43, maxLength: 43 }),
});

const GUESSES =
  'An unknown, used, revoked or expired link is one answer, 404 NOT_FOUND. Such links slow their client address like failed sign-ins ' +
  '(after LOGIN_FREE_FAILURES_PER_ADDRESS of them each further try waits 1 s, 2 s, 4 s…, real links too: 429 with Retry-After).';

/**
 * /console/v1/invitations/{token}: an invitation's link, for someone
 * without a session (they have no account yet): what it invites to, and
 * accepting it, which signs them in.
 */
export function invitationLinkRoutes(api: ApiRouter, deps: InvitationLinkDeps): void {
  const { guesses, directory, operators, devices } = deps;

  /** The invitation a link names and its app; an attempt of the client's address unless it was a real one. */
  async function follow(req: Request, token: string): Promise<{ invitation: InvitationRecord; appName: string }> {
    const address = clientAddress(req);
    await guesses.take(address);
    const invitation = await deps.invitations.byToken(token);
    const app = invitation && (await directory.getApp(invitation.appId));
    if (!invitation || !app) throw linkNotValid();
    await guesses.giveBack(address);
    return { invitation, appName: app.name };
  }

  api.route({
    method: 'get',
    path: '/invitations/:token',
    tag: 'Console',
    summary: 'Read an invitation by its link',
    description: `Public (the link is the credential): who invited which address to which app with which role, and until when. ${GUESSES}`,
    public: true,
    params: tokenParams,
    responses: {
      200: {
        description: 'The invitation',
        schema: z
          .object({
            invitation: z.object({
              app: z.object({ id: z.string(), name: z.string() }),
              email: z.string(),
              role: RoleName,
              invitedBy: z.string().openapi({ description: 'The e-mail address of the OWNER who invited.' }),
              expiresAt: timestamp,
              hasAccount: z.boolean().openapi({
                description: 'The address has an account already (made since it was invited): accepting takes its password instead of a new one.',
              }),
            }),
          })
          .openapi('InvitationLink'),
      },
    },
    errors: [404, 429],
    handle: async ({ req, params }) => {
      const { invitation, appName } = await follow(req, params.token);
      const account = await operators.findByEmail(invitation.email);
      return {
        status: 200,
        body: {
          invitation: {
            app: { id: invitation.appId, name: appName },
            email: invitation.email,
            role: invitation.role,
            invitedBy: invitation.invitedByEmail,
            expiresAt: invitation.expiresAt.toISOString(),
            hasAccount: account !== null,
          },
        },
      };
    },
  });

  api.route({
    method: 'post',
    path: '/invitations/:token/accept',
    tag: 'Console',
    summary: 'Accept an invitation',
    description:
      `Makes the account of the invited address with this password (at least ${MIN_PASSWORD_LENGTH} characters) and the membership ` +
      'with the invited role, uses the link up, and signs in like `POST /session` (the cookies, and the session answer in the app of the ' +
      'invitation). When the address got an account since it was invited, the password is that account\'s (422 PASSWORD_WRONG, counted as ' +
      'a failed sign-in) and the account joins the app; one that is a member already keeps its role. Of concurrent acceptances of one link ' +
      `exactly one succeeds; the others are 404. ${GUESSES}`,
    public: true,
    params: tokenParams,
    body: z.object({ password: passwordText(MIN_PASSWORD_LENGTH) }).openapi('AcceptInvitationRequest'),
    responses: { 200: { description: 'Accepted and signed in; the cookie is set', schema: ConsoleSessionSchema } },
    errors: [403, 404, 409, 422, 429],
    handle: async ({ req, res, params, body }) => {
      const { invitation } = await follow(req, params.token);
      const source = { address: clientAddress(req), device: devices.deviceOf(req, invitation.email) };
      const { operator } = await acceptInvitation(deps, invitation, body.password, source);
      // They land in the app they were invited to, now and at their next sign-in.
      await operators.setLastApp(operator._id, invitation.appId);
      return { status: 200, body: await startSession(deps, req, res, operator, source.device, invitation.appId) };
    },
  });
}
