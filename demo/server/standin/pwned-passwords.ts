import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The demo's and the tests' stand-in for the Pwned Passwords range API, on its own loopback port:
 * `GET /range/{five hex}` answers `SUFFIX:COUNT` lines for the fixtures below whose SHA-1 starts with
 * that prefix, and, when asked with `Add-Padding: true`, made-up suffixes with count 0 as the real
 * service pads its answers. It keeps what it was asked, so the tests can see what left the server.
 */

/**
 * Known breached passwords (SHA-1s computed from them, as the service lists them; counts as the
 * service showed them at the time of writing, rounded). The first two are on the server's own list of
 * common passwords too; the others pass every other rule, so only this check refuses them.
 */
export const BREACHED_FIXTURES: Record<string, number> = {
  password1: 2_400_000,
  'Passw0rd!': 60_000,
  'correct horse battery staple': 400,
  iloveyou2: 30_000,
  'Summer2023!': 2_000,
  qwertyuiop123: 10_000,
};

/** Listed only as padding (count 0): the check must not refuse it. */
export const PADDED_ONLY_FIXTURE = 'padding-only-listed-0';

/** Padding lines added to an answer asked with `Add-Padding: true` (the real service adds ~800–1,000). */
const PADDING_LINES = 40;

const sha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex').toUpperCase();

/** How the stand-in answers: as the service does, or as a broken one. */
export type PwnedStandInMode = 'normal' | 'garbage' | 'error' | 'silent' | 'redirect';

export interface ReceivedRange {
  /** The request's path, as it arrived. */
  path: string;
  headers: IncomingHttpHeaders;
}

export interface PwnedStandIn {
  /** The range API's address, ending in `/`: e.g. http://127.0.0.1:41234/range/. */
  url: string;
  /** Every request, oldest first. */
  received: ReceivedRange[];
  setMode(mode: PwnedStandInMode): void;
  close(): Promise<void>;
}

/** The answer's lines for a prefix: matching fixtures with their counts, then the padding. */
export function rangeLines(prefix: string, padding: boolean): string[] {
  const lines: string[] = [];
  for (const [password, count] of Object.entries(BREACHED_FIXTURES)) {
    const hash = sha1(password);
    if (hash.startsWith(prefix)) lines.push(`${hash.slice(5)}:${count}`);
  }
  if (!padding) return lines;
  const padded = sha1(PADDED_ONLY_FIXTURE);
  if (padded.startsWith(prefix)) lines.push(`${padded.slice(5)}:0`);
  for (let index = 0; index < PADDING_LINES; index++)
    lines.push(`${sha1(`padding ${prefix} ${index}`).slice(5)}:0`);
  return lines;
}

/** Start the stand-in on a loopback port (0: any free one). */
export async function startPwnedStandIn(port = 0): Promise<PwnedStandIn> {
  const received: ReceivedRange[] = [];
  let mode: PwnedStandInMode = 'normal';
  const server = createServer((request, response) => {
    const path = request.url ?? '';
    received.push({ path, headers: request.headers });
    const match = /^\/range\/([0-9A-Fa-f]{5})$/.exec(path);
    if (request.method !== 'GET' || !match) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (mode === 'silent') return; // never answers: the check's deadline ends it
    if (mode === 'error') return void response.writeHead(503).end();
    if (mode === 'redirect')
      return void response.writeHead(302, { location: `/range/${match[1]}?again` }).end();
    if (mode === 'garbage')
      return void response.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>');
    const padding = String(request.headers['add-padding']).toLowerCase() === 'true';
    const lines = rangeLines(match[1]!.toUpperCase(), padding);
    response.writeHead(200, { 'content-type': 'text/plain' }).end(lines.join('\r\n'));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  // As the other stand-ins: one left listening alone must not keep the process alive.
  server.unref();
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}/range/`,
    received,
    setMode(next) {
      mode = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
