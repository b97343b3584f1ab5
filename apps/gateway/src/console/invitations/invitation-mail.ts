import { createTransport, type Transporter } from 'nodemailer';
import type { Logger } from '@ris/logging';
import type { Role } from '../access/principal';

/** Whether an invitation's e-mail went out: SENT, FAILED (the link is still in the answer), or NOT_CONFIGURED (no SMTP_URL). */
export type EmailDelivery = 'SENT' | 'FAILED' | 'NOT_CONFIGURED';
export const EMAIL_DELIVERIES = ['SENT', 'FAILED', 'NOT_CONFIGURED'] as const satisfies readonly EmailDelivery[];

/** What an invitation's e-mail says. */
export interface InvitationLetter {
  invitationId: string;
  to: string;
  appName: string;
  invitedBy: string;
  role: Role;
  url: string;
  expiresAt: Date;
}

// A server that does not answer must not hold the owner's request for
// nodemailer's defaults (2 minutes to connect, 10 of silence).
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

/**
 * Sends invitations by e-mail when SMTP_URL is set (smtp://user:pass@host:587
 * upgrades with STARTTLS when the server offers it, smtps:// is TLS from the
 * start), from SMTP_FROM (default no-reply@ the SMTP server's host). A send
 * that fails is logged and answered FAILED, never thrown: the invitation is
 * made and its link shown all the same.
 */
export class InvitationMailer {
  private readonly transport: Transporter | null;

  constructor(
    settings: { smtpUrl?: string; from?: string },
    private readonly logger: Logger,
  ) {
    const { smtpUrl } = settings;
    const from = settings.from ?? (smtpUrl ? `Referral and Incentive Service <no-reply@${new URL(smtpUrl).hostname}>` : undefined);
    // Our own text only: nothing in a message may make nodemailer read a file or fetch a URL.
    this.transport = smtpUrl ? createTransport({ url: smtpUrl, ...TIMEOUTS, disableFileAccess: true, disableUrlAccess: true }, { from }) : null;
  }

  async send(letter: InvitationLetter): Promise<EmailDelivery> {
    if (!this.transport) return 'NOT_CONFIGURED';
    try {
      await this.transport.sendMail({ to: letter.to, subject: `${letter.invitedBy} invited you to ${letter.appName}`, text: invitationText(letter) });
      return 'SENT';
    } catch (err) {
      // Neither the link (it signs in) nor the address goes to the log: the invitation's id says which.
      const { code, responseCode, message } = err as { code?: string; responseCode?: number; message?: string };
      this.logger.warn({ invitationId: letter.invitationId, code, responseCode, reason: message }, 'could not send an invitation e-mail');
      return 'FAILED';
    }
  }
}

/** The e-mail's text: who invited whom to what, the link, and until when it works. */
export function invitationText(letter: InvitationLetter): string {
  return [
    `${letter.invitedBy} invited you to work in "${letter.appName}" as ${letter.role} in the Referral and Incentive Service dashboard.`,
    '',
    'Choose your password and sign in here:',
    letter.url,
    '',
    `The link works once, until ${letter.expiresAt.toISOString().replace('T', ' ').slice(0, 16)} UTC.`,
    'If you did not expect this invitation, ignore this e-mail.',
  ].join('\n');
}
