import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../demo/server/config';
import { openDatabase } from '../../demo/server/db/connect';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { openKeyRing } from '../../demo/server/lib/keys';
import {
  createTestApp,
  freePort,
  testEnvironment,
  TEST_KEY_ENCRYPTION_KEY,
  type TestApp,
  type TestEnvironment,
} from '../support/test-server';

const ROOT = resolve(import.meta.dirname, '..', '..');

describe('GET /healthz', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('answers {status: ok}, uncached, without a session', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/healthz' });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { status: 'ok' });
    assert.equal(response.headers['cache-control'], 'no-store');
    assert.equal(response.cookies.length, 0);
  });
});

describe('the signing keys', () => {
  it('are made in the database on first start, reused after, sealed there, and one when two nodes start at once', async () => {
    const env = await testEnvironment();
    const db = await openDatabase(env.config.databaseUrl);
    try {
      // Two nodes opening the keys of an empty database at once end up with one key and one secret.
      await db.kysely.deleteFrom('signing_keys').execute();
      await db.kysely.deleteFrom('server_secrets').execute();
      const [first, racer] = await Promise.all([
        openKeyRing(db, env.config, env.clock),
        openKeyRing(db, env.config, env.clock),
      ]);
      assert.equal(racer.signingKey().kid, first.signingKey().kid);
      assert.ok(racer.hmacSecret.equals(first.hmacSecret));
      const second = await openKeyRing(db, env.config, env.clock);
      assert.equal(second.signingKey().kid, first.signingKey().kid);
      assert.deepEqual(second.published(), first.published());
      assert.ok(second.hmacSecret.equals(first.hmacSecret));
      assert.equal(existsSync(join(env.dir, 'keys.json')), false, 'no key file is written');
      const rows = await db.kysely.selectFrom('signing_keys').selectAll().execute();
      assert.equal(rows.length, 1);
      // With KEY_ENCRYPTION_KEY (always on PostgreSQL) the private key is stored sealed.
      if (env.config.keyEncryptionKey) {
        assert.match(rows[0]!.private_jwk, /^aes256gcm\./);
        assert.doesNotMatch(rows[0]!.private_jwk, /"d"/);
      }
    } finally {
      await db.close();
      await env.cleanUp();
    }
  });
});

describe('the database dialect', () => {
  it('is PostgreSQL for a postgres:// DATABASE_URL (the pool connects lazily), SQLite otherwise', async () => {
    for (const url of ['postgres://acct:secret@127.0.0.1:1/portal', 'postgresql://acct@127.0.0.1:1/portal']) {
      assert.equal(
        loadConfig({ DATABASE_URL: url, KEY_ENCRYPTION_KEY: TEST_KEY_ENCRYPTION_KEY }).databaseUrl,
        url,
      );
      assert.throws(() => loadConfig({ DATABASE_URL: url }), /KEY_ENCRYPTION_KEY is required/);
      const db = await openDatabase(url);
      try {
        assert.equal(db.dialect, 'postgres');
        // Nothing listens on port 1: the first query is what tries to connect, and fails.
        await assert.rejects(db.kysely.selectFrom('teams').select('id').execute(), /ECONNREFUSED|connect/);
      } finally {
        await db.close();
      }
    }
    const dir = mkdtempSync(join(tmpdir(), 'acct-sqlite-'));
    try {
      const db = await openDatabase(join(dir, 'portal.db'));
      assert.equal(db.dialect, 'sqlite');
      await db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** demo/server/main.ts in its own process, as `npm run serve` runs it. */
interface Child {
  url: string;
  port: number;
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves once the server has logged a line that matches. */
  logged(pattern: RegExp): Promise<void>;
}

async function startMain(env: TestEnvironment): Promise<Child> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'demo/server/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://localhost:${port}`,
      DATA_DIR: env.dir,
      DATABASE_URL: env.config.databaseUrl,
      PARTNER_PORT: '0',
      STANDIN_PORTS: '0,0,0,0',
      HASH_COST: String(env.config.hashCost),
      ...(env.config.keyEncryptionKey
        ? { KEY_ENCRYPTION_KEY: env.config.keyEncryptionKey.toString('base64') }
        : {}),
      // info: "incoming request" lines tell the test when the server has taken a request.
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let log = '';
  const waiting: Array<{ pattern: RegExp; resolve: () => void }> = [];
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    log += chunk;
    for (const entry of [...waiting]) {
      if (entry.pattern.test(log)) {
        waiting.splice(waiting.indexOf(entry), 1);
        entry.resolve();
      }
    }
  });
  const logged = (pattern: RegExp) =>
    new Promise<void>((resolveLogged) => {
      if (pattern.test(log)) resolveLogged();
      else waiting.push({ pattern, resolve: resolveLogged });
    });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) =>
    child.once('exit', (code, signal) => resolveExit({ code, signal })),
  );
  // main.ts logs the portal's address once everything has started and the server listens. Generous: on
  // a loaded machine tsx alone can take half a minute to start.
  let timer: NodeJS.Timeout | undefined;
  const start = await Promise.race([
    logged(/"msg":"portal: /).then(() => 'started' as const),
    exited.then(() => 'exited' as const),
    new Promise<'too slow'>((resolveLate) => (timer = setTimeout(resolveLate, 90_000, 'too slow'))),
  ]);
  clearTimeout(timer);
  if (start !== 'started') {
    child.kill('SIGKILL');
    throw new Error(`the server did not start (${start})`);
  }
  assert.ok((await fetch(`${url}/healthz`)).ok, 'healthy once started');
  return { url, port, child, exited, logged };
}

const kidOf = async (url: string) =>
  ((await (await fetch(`${url}/.well-known/jwks`)).json()) as { keys: Array<{ kid: string }> }).keys[0]!.kid;

describe('the server process', () => {
  let env: TestEnvironment;
  const children: Child[] = [];
  before(async () => {
    env = await testEnvironment();
  });
  after(async () => {
    for (const { child } of children) if (child.exitCode === null) child.kill('SIGKILL');
    await env.cleanUp();
  });

  it('finishes an in-flight request on SIGTERM, refuses new connections, exits 0 within 15 s; the key survives restarts', async () => {
    const first = await startMain(env);
    children.push(first);
    // The key lives in the database: no file of the node's own.
    assert.equal(existsSync(join(env.dir, 'keys.json')), false);
    const kid = await kidOf(first.url);

    // A sign-in whose body is only half sent: the request is in flight when SIGTERM arrives.
    const body = JSON.stringify({ teamName: 'acme', email: 'ada@acme.test', password: DEMO_PASSWORD });
    const agent = new Agent({ keepAlive: true }); // a browser-like client that keeps its connection
    let req: ClientRequest;
    const answered = new Promise<{ status: number; text: string }>((resolveAnswer, reject) => {
      req = httpRequest(
        {
          host: '127.0.0.1',
          port: first.port,
          method: 'POST',
          path: '/account/login',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (response: IncomingMessage) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolveAnswer({ status: response.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
    });
    req!.write(body.slice(0, 10));
    // The server has routed it (it logs "incoming request" once past the closing check).
    await first.logged(
      /"url":"\/account\/login"[^\n]*"msg":"incoming request"|"msg":"incoming request"[^\n]*"url":"\/account\/login"/,
    );

    const signalled = Date.now();
    first.child.kill('SIGTERM');
    // New connections are refused once shutdown begins: the listening socket is the first thing closed
    // after the server logs it. A probe sent before that is answered, so the probes need no pause.
    await first.logged(/"msg":"SIGTERM: shutting down"/);
    const deadline = Date.now() + 5_000;
    let refused = false;
    while (!refused && Date.now() < deadline) {
      refused = await fetch(`${first.url}/healthz`, { signal: AbortSignal.timeout(2000) }).then(
        () => false,
        () => true,
      );
    }
    assert.ok(refused, 'new connections refused after SIGTERM');
    assert.equal(first.child.exitCode, null, 'still running while a request is in flight');

    req!.end(body.slice(10));
    const answer = await answered;
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(JSON.parse(answer.text), { authenticated: true });

    const exit = await first.exited;
    agent.destroy();
    assert.deepEqual(exit, { code: 0, signal: null });
    assert.ok(Date.now() - signalled < 15_000, `exited after ${Date.now() - signalled} ms`);

    // Second start on the same data directory: the same signing key.
    const second = await startMain(env);
    children.push(second);
    assert.equal(await kidOf(second.url), kid);
    second.child.kill('SIGTERM');
    assert.deepEqual(await second.exited, { code: 0, signal: null });
  });
});
