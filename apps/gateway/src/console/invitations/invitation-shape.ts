import { timestamp } from '../../openapi/common-schemas';
import { z } from '../../openapi/zod';
import { RoleName } from '../console-schemas';
import { EMAIL_DELIVERIES } from './invitation-mail';
import type { InvitationRecord } from './invitation.model';

// An invitation as the app's OWNER sees it (never its link: only the
// answer that made the link carries it), and as its link's page sees it.

export const InvitationSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    role: RoleName,
    invitedBy: z.object({ operatorId: z.string(), email: z.string() }),
    createdAt: timestamp,
    sentAt: timestamp.openapi({ description: 'When its current link was made: at the invitation or its last re-send.' }),
    expiresAt: timestamp,
    status: z.enum(['PENDING', 'EXPIRED']).openapi({ description: 'EXPIRED: its link no longer works; re-send it for a new one, or revoke it.' }),
  })
  .openapi('AppInvitation', { description: 'An invitation to the app by a one-time link, not accepted yet.' });

export const IssuedInvitationSchema = z
  .object({
    invitation: InvitationSchema,
    inviteUrl: z.string().openapi({
      description: 'The link that accepts the invitation (`<origin>/dashboard/invite/<token>`). Shown only in this answer: it works once, until `expiresAt`.',
    }),
    emailDelivery: z.enum(EMAIL_DELIVERIES).openapi({
      description: 'SENT: e-mailed to the address; FAILED: the e-mail could not be sent (pass the link on yourself); NOT_CONFIGURED: no SMTP_URL, the link is only here.',
    }),
  })
  .openapi('IssuedInvitation');

export function invitationJson(invitation: InvitationRecord, now = new Date()): z.infer<typeof InvitationSchema> {
  return {
    id: invitation._id,
    email: invitation.email,
    role: invitation.role,
    invitedBy: { operatorId: invitation.invitedBy, email: invitation.invitedByEmail },
    createdAt: invitation.createdAt.toISOString(),
    sentAt: invitation.sentAt.toISOString(),
    expiresAt: invitation.expiresAt.toISOString(),
    status: invitation.expiresAt > now ? 'PENDING' : 'EXPIRED',
  };
}
