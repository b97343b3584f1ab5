import { createLogger } from '@ris/logging';
import { SmtpSink, freeTcpPort } from '@ris/testing';
import { InvitationMailer, type InvitationLetter } from './invitation-mail';

const letter: InvitationLetter = {
  invitationId: 'inv_1',
  to: 'bob@example.com',
  appName: 'Acme shop',
  invitedBy: 'ann@example.com',
  role: 'MANAGER',
  url: 'https://dash.example.com/dashboard/invite/Abc_-0123456789012345678901234567890123456789',
  expiresAt: new Date('2026-12-01T10:30:00Z'),
};

// Against a local SMTP server (libs/testing's sink), as a real server would take it.
describe('invitation e-mails', () => {
  const logger = createLogger('test', 'silent');
  let sink: SmtpSink;

  beforeAll(async () => {
    sink = await SmtpSink.start({ user: 'mailer', password: 'p@ss word' });
  });

  afterAll(() => sink.close());

  it('sends the link, who invited to what and until when, with the credentials of SMTP_URL, from SMTP_FROM', async () => {
    const mailer = new InvitationMailer({ smtpUrl: sink.url, from: 'Acme dashboard <dash@acme.example>' }, logger);
    expect(await mailer.send(letter)).toBe('SENT');
    const [mail] = sink.received();
    expect(mail).toMatchObject({ from: 'dash@acme.example', to: ['bob@example.com'], subject: 'ann@example.com invited you to Acme shop' });
    expect(mail!.text).toContain(letter.url);
    expect(mail!.text).toContain('as MANAGER');
    expect(mail!.text).toContain('until 2026-12-01 10:30 UTC');
  });

  it('sends from no-reply@ the SMTP host without SMTP_FROM', async () => {
    await new InvitationMailer({ smtpUrl: sink.url }, logger).send(letter);
    expect(sink.received().at(-1)!.fromHeader).toBe('"Referral and Incentive Service" <no-reply@127.0.0.1>');
  });

  it('answers FAILED, never throws, when the server refuses, is unreachable or refuses the credentials; NOT_CONFIGURED without SMTP_URL', async () => {
    sink.refuse(true);
    try {
      expect(await new InvitationMailer({ smtpUrl: sink.url }, logger).send(letter)).toBe('FAILED');
    } finally {
      sink.refuse(false);
    }
    expect(await new InvitationMailer({ smtpUrl: `smtp://127.0.0.1:${await freeTcpPort()}` }, logger).send(letter)).toBe('FAILED');
    expect(await new InvitationMailer({ smtpUrl: sink.url.replace('p%40ss', 'wrong') }, logger).send(letter)).toBe('FAILED');
    expect(await new InvitationMailer({}, logger).send(letter)).toBe('NOT_CONFIGURED');
  });
});
