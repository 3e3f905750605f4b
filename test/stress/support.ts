import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { freePort, PRODUCTION_HASH_COST, testEnvironment } from '../support/test-server';

const ROOT = resolve(import.meta.dirname, '..', '..');

export { DEMO_PASSWORD };

/** A number from the environment (the lead runs the long forms; development uses short ones). */
export function envNumber(name: string, fallback: number): number {
  const raw = Number(process.env[name]);
  return Number.isFinite(raw) && raw > 0 ? raw : fallback;
}

export interface DataDir {
  dir: string;
  dbFile: string;
  /** The stress users, all in team `acme` with the demo password. */
  users: string[];
  cleanUp(): Promise<void>;
}

/**
 * A copy of the seeded database with `count` extra users in team acme (`stress-N@acme.test`), each with
 * its own sessions and password, so clients never disturb each other's sessions. They reuse Ada's
 * password hash: hashing 16 passwords with the real scrypt parameters would cost seconds.
 */
export async function dataDir(count: number): Promise<DataDir> {
  const environment = await testEnvironment({ HASH_COST: PRODUCTION_HASH_COST });
  const dbFile = join(environment.dir, 'portal.db');
  const db = new Database(dbFile);
  const ada = db.prepare("select team_id, password_hash from users where email = 'ada@acme.test'").get() as {
    team_id: string;
    password_hash: string;
  };
  const users = Array.from({ length: count }, (_, i) => `stress-${i}@acme.test`);
  const insert = db.prepare(
    'insert into users (id, team_id, email, name, password_hash, password_changed_at, locked, created_at) values (?, ?, ?, ?, ?, ?, 0, ?)',
  );
  for (const email of users) {
    insert.run(randomUUID(), ada.team_id, email, email, ada.password_hash, Date.now(), Date.now());
  }
  db.close();
  return { dir: environment.dir, dbFile, users, cleanUp: environment.cleanUp };
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /**
   * Resolves once the output passes `test` (checked as it arrives); rejects with `what` if the process
   * exits first or nothing passes within `timeoutMs`.
   */
  outputPasses(test: (output: string) => boolean, what: string, timeoutMs?: number): Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * The identity server in its own process (as `npm start` runs it) on the given data dir and port:
 * restartable on the same data after a kill. No partner origin; stand-ins on free ports.
 */
export async function startServer(
  dir: string,
  port: number,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const url = `http://localhost:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'demo/server/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: 'localhost',
      PUBLIC_URL: url,
      DATA_DIR: dir,
      DATABASE_URL: join(dir, 'portal.db'),
      PARTNER_PORT: '0',
      STANDIN_PORTS: '0,0,0,0',
      LOG_LEVEL: process.env.STRESS_LOG_LEVEL ?? 'warn',
      LOGIN_ADDRESS_LIMIT: '1000000',
      HASH_COST: PRODUCTION_HASH_COST,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const watchers = new Set<() => void>();
  const append = (chunk: Buffer) => {
    output += chunk.toString();
    for (const watcher of watchers) watcher();
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.once('exit', (code, signal) => r({ code, signal })),
  );
  const outputPasses = (test: (output: string) => boolean, what: string, timeoutMs = 30_000) =>
    new Promise<void>((resolvePass, reject) => {
      const done = (error?: Error) => {
        watchers.delete(check);
        clearTimeout(timer);
        if (error) reject(error);
        else resolvePass();
      };
      const check = () => {
        if (test(output)) done();
      };
      const timer = setTimeout(() => done(new Error(`${what} (nothing within ${timeoutMs} ms)`)), timeoutMs);
      void exited.then(() => done(new Error(`${what} (the server exited)`)));
      watchers.add(check);
      check();
    });
  // Polled: at the stress runs' log level (warn) the server logs nothing on starting that could be awaited.
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null || child.signalCode !== null) {
      child.kill('SIGKILL');
      throw new Error(`the server did not start:\n${output}`);
    }
    await sleep(100);
  }
  return { url, child, output: () => output, outputPasses, exited };
}

export { freePort };

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Client {
  cookie: string;
  xsrf: string;
  publicId: string;
  accessToken: string;
}

function cookieValue(response: Response, name: string): string {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const [key, ...rest] = pair!.split('=');
    if (key === name) return rest.join('=');
  }
  throw new Error(`no ${name} cookie`);
}

/** Sign in with a password and exchange the session for the portal's access token, as the portal does. */
export async function signIn(
  url: string,
  email: string,
  password: string,
  teamName = 'acme',
): Promise<Client> {
  const login = await fetch(`${url}/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ teamName, email, password }),
  });
  if (login.status !== 200) throw new Error(`login ${email}: ${login.status} ${await login.text()}`);
  const session = cookieValue(login, 'acct_session');
  const xsrf = cookieValue(login, 'XSRF-TOKEN');
  const cookie = `acct_session=${session}; XSRF-TOKEN=${xsrf}`;
  const check = await fetch(`${url}/account/check`, {
    method: 'POST',
    headers: { cookie, 'x-xsrf-token': xsrf },
  });
  const { session: publicId } = (await check.json()) as { session: string };
  const token = await fetch(`${url}/connect/token`, {
    method: 'POST',
    headers: { cookie, 'x-xsrf-token': xsrf, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'device_code', client_id: 'acct-portal', sessionId: publicId }),
  });
  if (token.status !== 200) throw new Error(`token ${email}: ${token.status} ${await token.text()}`);
  const { access_token: accessToken } = (await token.json()) as { access_token: string };
  return { cookie, xsrf, publicId, accessToken };
}

/** Resident memory of a process in MB, from /proc (Linux). */
export function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for ${pid}`);
  return Number(match[1]) / 1024;
}

/** Signs of a busy database reaching a client or the log (design §4: busy_timeout absorbs them). */
export const BUSY = /SQLITE_BUSY|database is locked/i;
