import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import type { TeamEvent } from '../../src/contract/team-events';

/** A key and a self-signed certificate for 127.0.0.1, made by openssl. */
function loopbackCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'acct-receiver-'));
  try {
    const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
    execFileSync(
      'openssl',
      [
        ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
        ...['-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'],
        ...['-keyout', key, '-out', cert],
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A team's security tool as Standard Webhooks describes one: every delivery verified with the library
 * (a bad signature answers 401 and is counted), each event kept once by its webhook-id, in the order it
 * first came. `failNext` makes the next deliveries answer 500 after the event was kept — a receiver that
 * stored it but whose answer was lost — so the retry is a repeat it must drop.
 */
export class Receiver {
  readonly cert: string;
  readonly events: TeamEvent[] = [];
  readonly ids = new Set<string>();
  bodies: string[] = [];
  attempts = 0;
  repeats = 0;
  badSignatures = 0;
  /** How many signatures the last delivery carried. */
  lastSignatures = 0;
  failNext = 0;
  /** Answer 500 to everything, before looking at it. */
  down = false;
  secrets: string[] = [];
  private constructor(
    private readonly server: Server,
    cert: string,
    readonly url: string,
  ) {
    this.cert = cert;
  }

  static async start(): Promise<Receiver> {
    const { key, cert } = loopbackCertificate();
    const holder: { r?: Receiver } = {};
    const server = createServer({ key, cert }, (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () =>
        response.writeHead(holder.r!.take(Buffer.concat(chunks).toString(), request.headers)).end(),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    holder.r = new Receiver(server, cert, `https://127.0.0.1:${port}/events`);
    return holder.r;
  }

  private take(body: string, headers: Record<string, string | string[] | undefined>): number {
    this.attempts++;
    this.lastSignatures = String(headers['webhook-signature'] ?? '')
      .split(' ')
      .filter(Boolean).length;
    if (this.down) return 500;
    const flat = Object.fromEntries(
      Object.entries(headers).flatMap(([name, value]) => (typeof value === 'string' ? [[name, value]] : [])),
    );
    let event: TeamEvent | undefined;
    for (const secret of this.secrets) {
      try {
        event = new Webhook(secret).verify(body, flat) as TeamEvent;
        break;
      } catch {
        // the next secret
      }
    }
    if (!event) {
      this.badSignatures++;
      return 401;
    }
    assert.equal(flat['webhook-id'], event.id, 'webhook-id is the event id');
    this.bodies.push(body);
    if (this.ids.has(event.id)) this.repeats++;
    else {
      this.ids.add(event.id);
      this.events.push(event);
    }
    if (this.failNext > 0) {
      this.failNext--;
      return 500;
    }
    return 204;
  }

  reset(): void {
    this.events.length = 0;
    this.ids.clear();
    this.bodies = [];
    this.attempts = this.repeats = this.badSignatures = this.failNext = 0;
    this.down = false;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
