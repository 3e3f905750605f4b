import { spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { freePort, testEnvironment } from '../support/test-server';

const ROOT = resolve(import.meta.dirname, '..', '..');

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * The identity server in its own process, as `npm start` runs it, on a fresh copy of the seeded
 * database — so load generators in this process do not share its event loop.
 */
export async function startServerProcess(env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const { dir } = await testEnvironment();
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'demo/server/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: 'localhost',
      PUBLIC_URL: url,
      DATA_DIR: dir,
      PARTNER_PORT: '0',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('the server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    child,
    stop: () =>
      new Promise((resolveStop) => {
        if (child.exitCode !== null) return resolveStop();
        child.once('exit', () => resolveStop());
        child.kill('SIGTERM');
      }),
  };
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
};

/**
 * A plain static server for the bench pages (another origin than the identity server, like a partner
 * site): `/` → test/bench/pages, `/dist/` → the bundle, `/floor/` → the React-only floor.
 */
export async function startPageServer(
  issuer: string,
  floorDir: string,
  port: number,
): Promise<{ url: string; close(): Promise<void> }> {
  const roots: Array<[string, string]> = [
    ['/dist/', join(ROOT, 'dist')],
    ['/floor/', floorDir],
    ['/', join(ROOT, 'test/bench/pages')],
  ];
  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    const match = roots.find(([prefix]) => path.startsWith(prefix));
    const file = match ? normalize(join(match[1], path.slice(match[0].length))) : '';
    if (!match || !file.startsWith(match[1]) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
    if (extname(file) === '.html') response.end(readFileSync(file, 'utf8').replaceAll('%ISSUER%', issuer));
    else createReadStream(file).pipe(response);
  });
  await new Promise<void>((r) => server.listen(port, 'localhost', r));
  return { url: `http://localhost:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}

export interface Spread {
  median: number;
  min: number;
  max: number;
}

export function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)]!, min: sorted[0]!, max: sorted.at(-1)! };
}
