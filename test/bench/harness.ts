import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { freePort, PRODUCTION_HASH_COST, testEnvironment } from '../support/test-server';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** Password hashes the server computes at once: its default, one per CPU. */
export const HASH_CONCURRENCY = Math.max(1, availableParallelism());

/**
 * The environment every process of the bench's server side runs with — the identity server, the bare
 * route and the hash bound alike. The libuv pool gets one thread per permitted hash plus one, so the
 * hashes, not the pool, set the limit, and other pool work (WebCrypto signing) is never queued behind
 * them; the bound is measured with the same pool and the same concurrency.
 */
export const SERVER_ENV: Record<string, string> = {
  HASH_COST: PRODUCTION_HASH_COST,
  HASH_CONCURRENCY: String(HASH_CONCURRENCY),
  UV_THREADPOOL_SIZE: String(HASH_CONCURRENCY + 1),
  LOG_LEVEL: 'warn',
};

/** Node's flags for every server process: the TypeScript loader (as `npm start`) and the loop monitor. */
const NODE_FLAGS = ['--import', 'tsx', '--import', join(ROOT, 'test/bench/loop-monitor.ts')];

export interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** The process's event-loop delay (ms) since the last call, from the preloaded loop monitor. */
  loopDelay(): Promise<LoopDelay>;
  stop(): Promise<void>;
}

/** How a server process is started beyond its environment. */
export interface StartOptions {
  /** More flags for Node (a profiler's). */
  nodeFlags?: string[];
  /** Run it on the server's cores of `pinnedCores()` (only where that is not null). */
  pinned?: boolean;
  /** Another Node than this process's, with the environment it needs (scripts/node24-runtime.mjs). */
  runtime?: { node: string; env: Record<string, string> };
}

/**
 * The cores the load generator (this process) and the server processes are kept on, when the machine
 * has at least two and `taskset` (util-linux) is there: the first core for the load generator, the
 * others for the server. Otherwise the two fight for the cores, and how the scheduler shares them moves a
 * route's rate from one window to the next by more than the budgets' margins
 * (docs/decisions/bench-paired-rounds.md). `BENCH_PIN=0` turns it off.
 */
export function pinnedCores(): { bench: string; server: string } | null {
  // The machine's cores, not this process's (availableParallelism counts only the cores it may use).
  const cores = cpus().length;
  if (process.env.BENCH_PIN === '0' || cores < 2) return null;
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
  } catch {
    return null;
  }
  return { bench: '0', server: cores === 2 ? '1' : `1-${cores - 1}` };
}

/** Puts every thread of this process on `cores`; returns the cores it had, to put it back. */
export function pinSelf(cores: string): string {
  const current = execFileSync('taskset', ['-p', '-c', String(process.pid)], { encoding: 'utf8' });
  const previous = current.slice(current.lastIndexOf(':') + 1).trim();
  execFileSync('taskset', ['-a', '-p', '-c', cores, String(process.pid)], { stdio: 'ignore' });
  return previous;
}

async function spawnServer(
  script: string,
  env: Record<string, string>,
  { nodeFlags = [], pinned = false, runtime }: StartOptions = {},
): Promise<ServerProcess> {
  const cores = pinned ? pinnedCores() : null;
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const command = [runtime?.node ?? process.execPath, ...NODE_FLAGS, ...nodeFlags, script];
  // taskset runs Node in its own place (exec): the child's pid is Node's, and every thread it starts
  // inherits the cores.
  const [file, ...args] = cores ? ['taskset', '-c', cores.server, ...command] : command;
  const child = spawn(file!, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      ...runtime?.env,
      ...SERVER_ENV,
      PORT: String(port),
      HOST: 'localhost',
      PUBLIC_URL: url,
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  // Generous: on a busy machine a start (TypeScript loader, migrations, keys) can take a while.
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`${script} did not start`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    child,
    loopDelay: () =>
      new Promise((resolveDelay, reject) => {
        const timer = setTimeout(() => reject(new Error('no answer from the loop monitor')), 5000);
        child.once('message', (message) => {
          clearTimeout(timer);
          resolveDelay((message as { loopDelay: LoopDelay }).loopDelay);
        });
        child.send('loop-delay');
      }),
    stop: () =>
      new Promise((resolveStop) => {
        if (child.exitCode !== null) return resolveStop();
        child.once('exit', () => resolveStop());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * The identity server in its own process, as `npm start` runs it, on a fresh copy of the seeded
 * database — so load generators in this process do not share its event loop. `prepare` may grow the
 * database file before the server opens it.
 */
export async function startServerProcess(
  env: Record<string, string> = {},
  prepare?: (databaseFile: string) => void,
  options: StartOptions = {},
): Promise<ServerProcess & { dataDir: string }> {
  // The seeded users' hashes at the server's own cost: sign-in throughput is measured against it.
  const { dir } = await testEnvironment({ HASH_COST: PRODUCTION_HASH_COST });
  let server: ServerProcess;
  try {
    prepare?.(join(dir, 'portal.db'));
    server = await spawnServer(
      join(ROOT, 'demo/server/main.ts'),
      { DATA_DIR: dir, PARTNER_PORT: '0', STANDIN_PORTS: '0,0,0,0', ...env },
      options,
    );
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    ...server,
    dataDir: dir,
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The bare Fastify route (bare-server.ts), started exactly like the identity server. */
export function startBareServer(options: StartOptions = {}): Promise<ServerProcess> {
  return spawnServer(join(ROOT, 'test/bench/bare-server.ts'), {}, options);
}

/** The password-hash bound (hash-bound.ts) in a process configured like the server. */
export function hashBound(seconds: number): Promise<number> {
  return new Promise((resolveBound, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'test/bench/hash-bound.ts'), String(seconds), String(HASH_CONCURRENCY)],
      { cwd: ROOT, env: { ...process.env, ...SERVER_ENV } },
      (error, stdout) => {
        if (error) return reject(error);
        resolveBound((JSON.parse(stdout) as { hashesPerSecond: number }).hashesPerSecond);
      },
    );
  });
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
};

/**
 * The file the bench's page server answers a path (or URL) with: `/dist/…` → the bundle, `/floor/…` →
 * the React-only floors, `/dist-b/…` → another build to compare with (the `ab` part), anything else →
 * test/bench/pages. Null for a path that leaves its folder, or `/dist-b/…` without another build.
 */
export function pageServerFile(floorDir: string, url: string, otherDist?: string): string | null {
  const roots: Array<[string, string]> = [
    ['/dist/', join(ROOT, 'dist')],
    ['/dist-b/', otherDist ?? ''],
    ['/floor/', floorDir],
    ['/', join(ROOT, 'test/bench/pages')],
  ];
  const path = decodeURIComponent(new URL(url, 'http://x').pathname);
  const [prefix, dir] = roots.find(([start]) => path.startsWith(start))!;
  if (!dir) return null;
  const file = normalize(join(dir, path.slice(prefix.length)));
  return file.startsWith(dir) ? file : null;
}

/**
 * A plain static server for the bench pages (another origin than the identity server, like a partner
 * site): `/` → test/bench/pages, `/dist/` → the bundle, `/floor/` → the React-only floors, `/dist-b/` →
 * `otherDist`, the build the `ab` part compares with (a page asked for with `?build=b` uses it). Its
 * answers are never cached nor compressed; a page asked for with `?bundle=issuer` loads the bundle from
 * the identity server instead.
 */
export async function startPageServer(
  issuer: string,
  floorDir: string,
  port: number,
  otherDist?: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const file = pageServerFile(floorDir, request.url ?? '/', otherDist);
    if (!file || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
    if (extname(file) === '.html') {
      const html = readFileSync(file, 'utf8').replaceAll('%ISSUER%', issuer);
      const query = new URL(request.url ?? '/', 'http://x').searchParams;
      // `?build=b`: the same page with the other build's bundle (the `ab` part); `?bundle=issuer`: with
      // the bundle from the identity server, as a partner page loads it (compressed, cached as it says).
      const dist =
        query.get('build') === 'b'
          ? '/dist-b/'
          : query.get('bundle') === 'issuer'
            ? `${issuer}/dist/`
            : '/dist/';
      response.end(html.replaceAll('"/dist/', `"${dist}`));
    } else createReadStream(file).pipe(response);
  });
  await new Promise<void>((r) => server.listen(port, 'localhost', r));
  return { url: `http://localhost:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}

export interface Spread {
  median: number;
  min: number;
  max: number;
}

/** The item whose `value` is the median: the upper middle of an even count, as `spread` takes it. */
export function medianBy<T>(items: readonly T[], value: (item: T) => number): T {
  const sorted = [...items].sort((a, b) => value(a) - value(b));
  return sorted[Math.floor(sorted.length / 2)]!;
}

export function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)]!, min: sorted[0]!, max: sorted.at(-1)! };
}
