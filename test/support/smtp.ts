import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { freePort } from './test-server';

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The first link to the portal in the text part. */
  link: string | null;
}

/**
 * A real SMTP server on loopback (the `smtp-server` package) that keeps what it receives, for tests
 * that follow mail the way a person would.
 */
export class TestSmtp {
  readonly received: ReceivedMail[] = [];
  private waiters: Array<() => void> = [];
  private constructor(
    private readonly server: SMTPServer,
    readonly port: number,
  ) {}

  static async start(): Promise<TestSmtp> {
    const port = await freePort();
    // The server is made before the object that records its mail.
    const holder: { target?: TestSmtp } = {};
    const server = new SMTPServer({
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, _session, callback) {
        simpleParser(stream).then(
          (mail: ParsedMail) => {
            holder.target?.record(mail);
            callback();
          },
          (error: Error) => callback(error),
        );
      },
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    holder.target = new TestSmtp(server, port);
    return holder.target;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  private record(mail: ParsedMail) {
    const to = Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(', ') : (mail.to?.text ?? '');
    const text = mail.text ?? '';
    this.received.push({
      to,
      subject: mail.subject ?? '',
      text,
      html: typeof mail.html === 'string' ? mail.html : '',
      link: /https?:\/\/\S+/.exec(text)?.[0] ?? null,
    });
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** The next mail to `to` whose subject matches, waiting up to `timeoutMs`. */
  async next(to: string, subject: RegExp, timeoutMs = 10_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.received.findIndex((m) => m.to.includes(to) && subject.test(m.subject));
      if (index >= 0) return this.received.splice(index, 1)[0]!;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no mail to ${to} matching ${subject} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
