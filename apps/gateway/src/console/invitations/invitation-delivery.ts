import type { Request } from 'express';
import type { AppDirectory } from '../../tenancy/app-directory';
import type { InvitationMailer } from './invitation-mail';
import { invitationJson } from './invitation-shape';
import type { IssuedInvitation } from './member-invitations';

/** The link of an invitation's token: `<public origin>/dashboard/invite/<token>` (gateway-app.ts knows the origin and the base). */
export type InviteUrl = (req: Request, token: string) => string;

/**
 * Hands a new link over: by e-mail when SMTP is configured, and in the
 * answer (IssuedInvitation) either way, so a failed e-mail loses nothing.
 */
export class InvitationDelivery {
  constructor(
    private readonly mailer: InvitationMailer,
    private readonly directory: AppDirectory,
    private readonly inviteUrl: InviteUrl,
  ) {}

  async deliver(req: Request, { invitation, token }: IssuedInvitation) {
    const url = this.inviteUrl(req, token);
    const app = await this.directory.getApp(invitation.appId);
    const emailDelivery = await this.mailer.send({
      invitationId: invitation._id,
      to: invitation.email,
      appName: app?.name ?? invitation.appId,
      invitedBy: invitation.invitedByEmail,
      role: invitation.role,
      url,
      expiresAt: invitation.expiresAt,
    });
    return { invitation: invitationJson(invitation), inviteUrl: url, emailDelivery };
  }
}
