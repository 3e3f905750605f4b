import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import { randomToken } from './crypto';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The one link a person acts on (logged in outbox mode, listed on the demo outbox page). */
  link?: string;
}

export interface OutboxEntry {
  file: string;
  date: string;
  to: string;
  subject: string;
  link: string | null;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}

/**
 * Write a file whole: under a temporary name first, then renamed into place (a rename within a folder
 * is atomic), so a reader of the folder finds it complete or not at all — never the empty or half-written
 * file that a plain write shows between its open and its last write.
 */
async function writeWhole(path: string, data: string | Buffer): Promise<void> {
  const temporary = `${path}.${randomToken(4)}.tmp`;
  await writeFile(temporary, data, { mode: 0o600 });
  await rename(temporary, path);
}

/** Mail over SMTP (`SMTP_URL`). */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;
  constructor(
    url: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(url);
  }
  async send(mail: OutgoingMail): Promise<void> {
    await this.transport.sendMail({
      from: this.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
    });
  }
}

/**
 * Without SMTP (the embedded default): each message becomes an `.eml` file under `data/outbox/`, with a
 * `.json` note beside it for the demo's outbox page, and the link is logged — in a demo without a mail
 * server that is how a person gets to the reset screen. (Only in this mode does a reset link reach a log.)
 */
export class OutboxMailer implements Mailer {
  private readonly transport: Transporter;
  constructor(
    readonly dir: string,
    private readonly from: string,
    private readonly log: FastifyBaseLogger,
  ) {
    this.transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  }

  async send(mail: OutgoingMail): Promise<void> {
    const info = await this.transport.sendMail({
      from: this.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
    });
    await mkdir(this.dir, { recursive: true });
    const date = new Date();
    const name = `${date.toISOString().replace(/[:.]/g, '-')}-${randomToken(4)}`;
    // The message first, then the note that lists it; each whole (the outbox page reads them any time).
    await writeWhole(join(this.dir, `${name}.eml`), info.message as Buffer);
    const entry: OutboxEntry = {
      file: `${name}.eml`,
      date: date.toISOString(),
      to: mail.to,
      subject: mail.subject,
      link: mail.link ?? null,
    };
    await writeWhole(join(this.dir, `${name}.json`), JSON.stringify(entry));
    this.log.info(
      { to: mail.to, subject: mail.subject, link: mail.link, file: entry.file },
      'mail written to the outbox',
    );
  }

  /** The newest messages first. */
  async recent(limit = 20): Promise<OutboxEntry[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    const notes = names
      .filter((name) => name.endsWith('.json'))
      .sort()
      .reverse()
      .slice(0, limit);
    const entries = await Promise.all(
      notes.map(async (name) => JSON.parse(await readFile(join(this.dir, name), 'utf8')) as OutboxEntry),
    );
    return entries;
  }
}

export function createMailer(
  smtpUrl: string | null,
  dataDir: string,
  from: string,
  log: FastifyBaseLogger,
): Mailer {
  return smtpUrl ? new SmtpMailer(smtpUrl, from) : new OutboxMailer(join(dataDir, 'outbox'), from, log);
}
