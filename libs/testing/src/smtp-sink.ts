import { simpleParser } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message a sink received: its envelope, and its parsed head and text. */
export interface ReceivedMail {
  /** The envelope's sender and recipients (MAIL FROM, RCPT TO). */
  from: string;
  to: string[];
  /** The From header as sent. */
  fromHeader: string;
  subject: string;
  /** The text part, transfer encoding undone. */
  text: string;
}

/**
 * A local SMTP server for tests (smtp-server on 127.0.0.1, port 0) that
 * keeps every message it is sent. Plain SMTP without STARTTLS, and it
 * takes only the user name and password of its URL (`url`), so a test
 * proves the sender passes the credentials of SMTP_URL; `refuse` makes it
 * answer every message with a permanent failure (550).
 */
export class SmtpSink {
  private readonly messages: ReceivedMail[] = [];
  private refusing = false;
  private readonly server: SMTPServer;

  private constructor(
    private readonly user: string,
    private readonly password: string,
  ) {
    this.server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      authMethods: ['PLAIN', 'LOGIN'],
      logger: false,
      onAuth: (auth, _session, callback) => {
        if (auth.username === this.user && auth.password === this.password) callback(null, { user: auth.username });
        else callback(new Error('Invalid username or password'));
      },
      onData: (stream, session, callback) => {
        simpleParser(stream)
          .then((parsed) => {
            if (this.refusing) return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
            this.messages.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
              fromHeader: parsed.from?.text ?? '',
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
            });
            callback();
          })
          .catch((err: Error) => callback(err));
      },
    });
  }

  static async start(credentials: { user: string; password: string } = { user: 'sink', password: 'sink-password' }): Promise<SmtpSink> {
    const sink = new SmtpSink(credentials.user, credentials.password);
    await new Promise<void>((resolve, reject) => {
      sink.server.once('error', reject);
      sink.server.listen(0, '127.0.0.1', () => resolve());
    });
    return sink;
  }

  get port(): number {
    return (this.server.server.address() as AddressInfo).port;
  }

  /** smtp://user:password@127.0.0.1:port: an SMTP_URL that reaches this sink. */
  get url(): string {
    return `smtp://${encodeURIComponent(this.user)}:${encodeURIComponent(this.password)}@127.0.0.1:${this.port}`;
  }

  /** The messages received so far, oldest first. */
  received(): ReceivedMail[] {
    return [...this.messages];
  }

  /** From now on, refuse (550) or take every message. */
  refuse(refusing: boolean): void {
    this.refusing = refusing;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
