/**
 * Three app nodes on one PostgreSQL behind haproxy (test/cluster/support.ts), driven through the
 * balancer as clients would use it: nodes starting together on an empty database, sign-in, userinfo on
 * every node, sign-out on one node seen by all, the lockout counted across nodes, one reset token spent
 * on three nodes at once, an app's code and refresh token used across nodes and its back-channel
 * logout sent once, a key rotation under load, and kill -9 of a node under load.
 * Run with `npm run test:cluster` (a throwaway PostgreSQL from scripts/postgres.mjs). Every loop is
 * bounded in count and time; every process started is killed in `after`, also when a step fails.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import pg from 'pg';
import { MIGRATION_NAMES } from '../../demo/server/db/migrations';
import { DEMO_PASSWORD } from '../../demo/server/db/seed';
import { LOCKOUT_THRESHOLD } from '../../demo/server/lib/lockout';
import { offlineCodeRequest } from '../support/oidc-request';
import { TestSmtp } from '../support/smtp';
import { TEST_HASH_COST } from '../support/test-server';
import { Cluster, emptyDatabase, type AppNode } from './support';
import { proofAt } from '../support/proof';
import type { Proof } from '../../src/contract/schemas/challenge';

const ROOT = resolve(import.meta.dirname, '..', '..');
/** The OpenID Provider's client in the cluster: a public suite app. */
const OIDC_APP = 'cluster-suite-app';
const OIDC_REDIRECT = 'https://app.example.test/callback';
const skip = process.env.DATABASE_URL?.startsWith('postgres')
  ? false
  : 'needs PostgreSQL: npm run test:cluster';

/** Figures the journeys measure, printed at the end (the report quotes them). */
const figures: Record<string, string | number> = {};

/** A client with its own cookies, as a browser holds them; no affinity to any node. */
class Client {
  private readonly jar = new Map<string, string>();
  xsrf = '';

  async call(
    base: string,
    path: string,
    init: { method?: string; json?: unknown; form?: Record<string, string>; bearer?: string } = {},
  ) {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.jar.size) headers.cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    if (this.xsrf) headers['x-xsrf-token'] = this.xsrf;
    if (init.bearer) headers.authorization = `Bearer ${init.bearer}`;
    let body: string | undefined;
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    } else if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const response = await fetch(`${base}${path}`, {
      method: init.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at);
      const value = pair!.slice(at + 1);
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.jar.delete(name);
      else this.jar.set(name, value);
      if (name === 'XSRF-TOKEN') this.xsrf = decodeURIComponent(value);
    }
    const text = await response.text();
    const location = response.headers.get('location');
    return {
      status: response.status,
      text,
      location,
      json: () => JSON.parse(text) as Record<string, unknown>,
    };
  }

  cookie(name: string): string | undefined {
    return this.jar.get(name);
  }
}

/** Signs in through `base` and exchanges the session for an access token. */
async function signIn(base: string, email: string, team = 'acme', password = DEMO_PASSWORD, proof?: Proof) {
  const client = new Client();
  const login = await client.call(base, '/account/login', {
    json: { teamName: team, email, password, proof },
  });
  if (login.status !== 200) return { client, status: login.status, accessToken: '', publicId: '' };
  const check = await client.call(base, '/account/check', { method: 'POST' });
  const publicId = String(check.json().session);
  const token = await client.call(base, '/connect/token', {
    form: { grant_type: 'device_code', client_id: 'acct-portal', sessionId: publicId },
  });
  assert.equal(token.status, 200, token.text);
  return { client, status: 200, accessToken: String(token.json().access_token), publicId };
}

const userinfo = async (base: string, token: string) =>
  (await new Client().call(base, '/connect/userinfo', { bearer: token })).status;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `workers` loops of `step` until `stop()` resolves or `maxMs` passes (whichever is first). */
async function underLoad<T>(
  workers: number,
  maxMs: number,
  step: () => Promise<T>,
  during: () => Promise<void>,
) {
  const results: Array<{ ok: boolean; value?: T; error?: string; at: number }> = [];
  let stopped = false;
  const deadline = Date.now() + maxMs;
  const loops = Array.from({ length: workers }, async () => {
    for (let i = 0; i < 10_000 && !stopped && Date.now() < deadline; i++) {
      try {
        results.push({ ok: true, value: await step(), at: Date.now() });
      } catch (error) {
        results.push({ ok: false, error: String(error), at: Date.now() });
      }
    }
  });
  try {
    await during();
  } finally {
    stopped = true;
    await Promise.all(loops);
  }
  return results;
}

describe('a cluster of three nodes behind haproxy on one PostgreSQL', { skip, timeout: 120_000 }, () => {
  let cluster: Cluster;
  let smtp: TestSmtp;
  let database: Awaited<ReturnType<typeof emptyDatabase>>;
  let db: pg.Client;
  let nodes: AppNode[];
  /** A suite app of the OpenID Provider: its back-channel logout endpoint counts tokens by sid. */
  let appReceiver: Server;
  const logoutsBySid = new Map<string, number>();
  const dir = mkdtempSync(join(tmpdir(), 'acct-cluster-oidc-'));

  before(async () => {
    smtp = await TestSmtp.start();
    database = await emptyDatabase();
    appReceiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const token = new URLSearchParams(body).get('logout_token');
        const sid = token ? String(decodeJwt(token).sid) : '';
        if (sid) logoutsBySid.set(sid, (logoutsBySid.get(sid) ?? 0) + 1);
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((done) => appReceiver.listen(0, '127.0.0.1', done));
    const clients = join(dir, 'oidc-clients.json');
    writeFileSync(
      clients,
      JSON.stringify([
        {
          client_id: OIDC_APP,
          redirect_uris: [OIDC_REDIRECT],
          grant_types: ['authorization_code', 'refresh_token'],
          token_endpoint_auth_method: 'none',
          backchannel_logout_uri: `http://127.0.0.1:${(appReceiver.address() as AddressInfo).port}/logout`,
        },
      ]),
    );
    cluster = await Cluster.create({
      databaseUrl: database.url,
      env: {
        SMTP_URL: smtp.url,
        HASH_COST: TEST_HASH_COST,
        LOGIN_ADDRESS_LIMIT: '1000000',
        OIDC_CLIENTS_FILE: clients,
      },
    });
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
  });
  after(async () => {
    await cluster?.close();
    await db?.end().catch(() => undefined);
    await database?.drop();
    await smtp?.close();
    await new Promise((done) => appReceiver?.close(done));
    rmSync(dir, { recursive: true, force: true });
    console.log(`cluster figures: ${JSON.stringify(figures)}`);
  });

  it('starts three nodes at once on an empty database: one migration each, one seed, one key', async () => {
    const started = Date.now();
    nodes = await cluster.startNodes(3);
    figures.startThreeMs = Date.now() - started;
    const migrations = await db.query<{ name: string; n: string }>(
      'select name, count(*) as n from kysely_migration group by name order by name',
    );
    assert.deepEqual(
      migrations.rows.map((row) => [row.name, Number(row.n)]),
      MIGRATION_NAMES.map((name) => [name, 1]),
    );
    const counts = await db.query<{ teams: string; users: string; keys: string; secrets: string }>(
      `select (select count(*) from teams) as teams, (select count(*) from users) as users,
        (select count(*) from signing_keys) as keys, (select count(*) from server_secrets) as secrets`,
    );
    const row = counts.rows[0]!;
    assert.equal(Number(row.keys), 1, 'one signing key');
    assert.equal(Number(row.secrets), 1, 'one anti-forgery secret');
    // The seed adds each team and user once: a second run would have failed on their unique names, or
    // doubled the users of a team.
    const perTeam = await db.query<{ n: string }>(
      "select count(*) as n from users join teams on teams.id = users.team_id where teams.name = 'acme' and users.email = 'ada@acme.test'",
    );
    assert.equal(Number(perTeam.rows[0]!.n), 1);
    assert.ok(Number(row.teams) > 1 && Number(row.users) > 1);
    await cluster.startBalancer();
  });

  it('signs in through the balancer; every node answers userinfo for the token and shares the XSRF secret', async () => {
    const { accessToken, client } = await signIn(cluster.url, 'ada@acme.test');
    assert.ok(accessToken);
    for (const node of nodes)
      assert.equal(await userinfo(node.url, accessToken), 200, `${node.name} answers`);
    // The session cookie and its anti-forgery token work on every node: no per-node secret.
    for (const node of nodes) {
      const check = await client.call(node.url, '/account/check', { method: 'POST' });
      assert.equal(check.status, 200, `${node.name}: ${check.text}`);
      assert.equal(check.json().authenticated, true);
    }
    // Through the balancer, round robin: six calls, every one answered.
    for (let i = 0; i < 6; i++) assert.equal(await userinfo(cluster.url, accessToken), 200);
  });

  it('stops a token on every node once it is signed out on one: that node at once, the others within a notification', async () => {
    const { accessToken, client, status } = await signIn(cluster.url, 'ada@acme.test');
    assert.equal(status, 200);
    // Every node has read the token's holder and keeps it.
    for (let i = 0; i < 2; i++)
      for (const node of nodes) assert.equal(await userinfo(node.url, accessToken), 200);
    const logout = await client.call(nodes[0]!.url, '/account/logout', { form: {} });
    assert.equal(logout.status, 204, logout.text);
    const answered = performance.now();
    // Asked right after the sign-out's answer: the node that wrote it refuses at once (its own write);
    // the others as soon as the commit's notification has reached them. Each is asked every 2 ms until
    // it refuses; the bound tested is generous (1 s), the delays are reported.
    const delays = await Promise.all(
      nodes.map(async (node) => {
        for (let i = 0; i < 500; i++) {
          if ((await userinfo(node.url, accessToken)) === 401)
            return { node, ms: performance.now() - answered, calls: i + 1 };
          if (performance.now() - answered > 1000) break;
          await sleep(2);
        }
        return { node, ms: Infinity, calls: 0 };
      }),
    );
    figures.signOutRefusedAtFirstCall = delays.filter((d) => d.calls === 1).length;
    figures.signOutRefusedWithinMs = Math.round(Math.max(...delays.map((d) => d.ms)) * 10) / 10;
    assert.equal(delays[0]!.calls, 1, 'the node that signed out refuses at the first call');
    for (const { node, ms } of delays)
      assert.ok(ms < 1000, `${node.name} still accepted the token after 1 s`);
  });

  it('takes an app’s code at another node and its refresh at a third; a sign-out’s logout is sent once', async () => {
    const { client, status } = await signIn(cluster.url, 'ada@acme.test');
    assert.equal(status, 200);
    const [first, second, third] = nodes.map((node) => node.url) as [string, string, string];
    const request = offlineCodeRequest(OIDC_APP, OIDC_REDIRECT);
    let location = request.path;
    // The browser's round trip (authorization, the portal's interaction, back) through the first node.
    for (let i = 0; i < 10 && !location.startsWith(OIDC_REDIRECT); i++) {
      const next = new URL(location, first);
      const answer = await client.call(first, `${next.pathname}${next.search}`);
      assert.ok([302, 303].includes(answer.status), `${next.pathname}: ${answer.status} ${answer.text}`);
      location = answer.location ?? '';
    }
    const code = new URL(location).searchParams.get('code');
    assert.ok(code, `a code: ${location}`);
    const tokenAt = (base: string, form: Record<string, string>) =>
      new Client().call(base, '/connect/token', { form: { client_id: OIDC_APP, ...form } });
    const tokens = await tokenAt(second, {
      grant_type: 'authorization_code',
      code,
      code_verifier: request.verifier,
      redirect_uri: OIDC_REDIRECT,
    });
    assert.equal(tokens.status, 200, tokens.text);
    const sid = String(decodeJwt(String(tokens.json().id_token)).sid);
    const refreshed = await tokenAt(third, {
      grant_type: 'refresh_token',
      refresh_token: String(tokens.json().refresh_token),
    });
    assert.equal(refreshed.status, 200, refreshed.text);

    const logout = await client.call(first, '/account/logout', { form: {} });
    assert.equal(logout.status, 204, logout.text);
    // Every node sweeps after a request that writes: they race for the ended session.
    await Promise.all(nodes.map((node) => new Client().call(node.url, '/account/check', { method: 'POST' })));
    for (let i = 0; i < 100 && !logoutsBySid.get(sid); i++) await sleep(50);
    await sleep(1000);
    figures.backchannelLogoutsSent = logoutsBySid.get(sid) ?? 0;
    assert.equal(logoutsBySid.get(sid), 1, 'the app is told once');
    const refused = await tokenAt(second, {
      grant_type: 'refresh_token',
      refresh_token: String(refreshed.json().refresh_token),
    });
    assert.equal(refused.json().error, 'invalid_grant', refused.text);
  });

  it('counts sign-in failures across nodes: the lockout holds on every node', async () => {
    const email = 'carol@globex.test';
    // One failure per node in turn, straight to the nodes.
    for (let i = 0; i < LOCKOUT_THRESHOLD; i++) {
      const node = nodes[i % nodes.length]!;
      // From the third failure on a solved challenge comes first, issued by the node before this one:
      // every node checks what any node signed.
      const proof = i >= 2 ? await proofAt(nodes[(i + 1) % nodes.length]!.url) : undefined;
      const { status } = await signIn(node.url, email, 'globex', 'not the password', proof);
      assert.equal(status, i === LOCKOUT_THRESHOLD - 1 ? 403 : 401, `failure ${i + 1} on ${node.name}`);
      // A solution spent on one node is refused on every other.
      if (proof) {
        const again = await signIn(
          nodes[(i + 1) % nodes.length]!.url,
          email,
          'globex',
          'not the password',
          proof,
        );
        assert.equal(again.status, 403, `a replay after failure ${i + 1}`);
      }
    }
    for (const node of nodes) {
      const { status } = await signIn(node.url, email, 'globex');
      assert.equal(status, 403, `${node.name} lets a locked account sign in`);
    }
  });

  it('spends a reset token once when three nodes get it at the same moment', async () => {
    // Carol, locked out by the journey before: a reset also ends the lockout.
    const email = 'carol@globex.test';
    const request = await new Client().call(cluster.url, '/api/user/password/request', {
      json: { teamName: 'globex', userName: email, proof: await proofAt(cluster.url) },
    });
    assert.equal(request.status, 200, request.text);
    const link = new URL((await smtp.next(email, /password/i)).link!);
    const answers = await Promise.all(
      nodes.map((node, i) =>
        new Client().call(node.url, '/api/user/password/reset', {
          json: {
            teamName: 'globex',
            userId: link.searchParams.get('id')!,
            token: link.searchParams.get('token')!,
            newPassword: `a new passphrase number ${i}`,
          },
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    figures.resetStatuses = statuses.join(',');
    assert.equal(statuses.filter((status) => status === 200).length, 1, `one winner: ${statuses}`);
    assert.equal(statuses.filter((status) => status === 410).length, 2, `the others refused: ${statuses}`);
    const winner = statuses.indexOf(200);
    assert.equal(
      (await signIn(cluster.url, email, 'globex', `a new passphrase number ${winner}`)).status,
      200,
    );
  });

  it('rotates the signing key under load with no failed request; old tokens stay valid', async () => {
    const before = await signIn(cluster.url, 'ada@acme.test');
    const oldKid = decodeProtectedHeader(before.accessToken).kid;
    const tokens: string[] = [];
    const results = await underLoad(
      3,
      15_000,
      async () => {
        const signedIn = await signIn(cluster.url, 'ada@acme.test');
        if (signedIn.status !== 200) throw new Error(`sign-in answered ${signedIn.status}`);
        tokens.push(signedIn.accessToken);
        for (const token of [signedIn.accessToken, before.accessToken]) {
          const status = await userinfo(cluster.url, token);
          if (status !== 200) throw new Error(`userinfo answered ${status}`);
        }
      },
      async () => {
        await sleep(500);
        const rotate = spawn('npm', ['run', '--silent', 'keys:rotate', '--', '--now'], {
          cwd: ROOT,
          env: cluster.environment(),
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        rotate.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
        rotate.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
        const code = await new Promise<number | null>((r) => {
          const timer = setTimeout(() => rotate.kill('SIGKILL'), 30_000);
          rotate.once('exit', (exitCode) => {
            clearTimeout(timer);
            r(exitCode);
          });
        });
        assert.equal(code, 0, output);
        // Go on until tokens of the new key have been used on every node.
        const newKid = /new signing key ([\w-]+)/.exec(output)?.[1];
        figures.rotatedTo = newKid ?? '?';
        for (
          let i = 0;
          i < 100 && tokens.filter((t) => decodeProtectedHeader(t).kid === newKid).length < 6;
          i++
        )
          await sleep(50);
      },
    );
    const failed = results.filter((result) => !result.ok);
    // Each step: sign-in, check, token exchange, two userinfo calls.
    figures.rotationRequests = results.length * 5;
    figures.rotationFailed = failed.length;
    assert.deepEqual(
      failed.map((f) => f.error),
      [],
      'no request failed during the rotation',
    );
    const kids = new Set(tokens.map((token) => decodeProtectedHeader(token).kid));
    assert.ok(kids.has(figures.rotatedTo as string), 'tokens of the new key were issued');
    assert.ok(kids.size === 2 && kids.has(oldKid), `old and new keys both signed: ${[...kids]}`);
    const jwks = (await (await fetch(`${cluster.url}/.well-known/jwks`)).json()) as {
      keys: Array<{ kid: string }>;
    };
    assert.deepEqual(
      jwks.keys.map((key) => key.kid),
      [figures.rotatedTo, oldKid],
    );
    for (const node of nodes)
      assert.equal(await userinfo(node.url, before.accessToken), 200, 'the old token');
  });

  it('keeps serving when a node is killed (-9) under load, and loses no acknowledged write', async () => {
    const victim = nodes[2]!;
    const sessions: string[] = [];
    let killedAt = 0;
    const results = await underLoad(
      4,
      15_000,
      async () => {
        const client = new Client();
        const login = await client.call(cluster.url, '/account/login', {
          json: { teamName: 'acme', email: 'ada@acme.test', password: DEMO_PASSWORD },
        });
        if (login.status !== 200) throw new Error(`sign-in answered ${login.status}`);
        // Acknowledged: the session is in the database, whichever node made it.
        sessions.push(client.cookie('acct_session')!);
      },
      async () => {
        await sleep(1500);
        killedAt = Date.now();
        await cluster.kill(victim);
        await sleep(2500);
      },
    );
    const failed = results.filter((result) => !result.ok);
    const afterKill = results.filter((result) => result.at > killedAt + 1000);
    figures.killRequests = results.length;
    figures.killFailed = failed.length;
    figures.killFailures = failed.map((f) => f.error).join(' | ');
    figures.killFailedLater = afterKill.filter((result) => !result.ok).length;
    figures.killAcknowledged = sessions.length;
    assert.ok(afterKill.length > 0, 'requests went on after the kill');
    assert.equal(figures.killFailedLater, 0, 'the balancer moved on within a second');
    // Every acknowledged sign-in's session was stored.
    const hashes = sessions.map((value) =>
      createHash('sha256').update(decodeURIComponent(value)).digest('base64url'),
    );
    const stored = await db.query<{ n: string }>(
      'select count(*) as n from sessions where id_hash = any($1)',
      [hashes],
    );
    assert.equal(Number(stored.rows[0]!.n), sessions.length, 'an acknowledged sign-in was lost');
    // The two left answer as before.
    const { accessToken } = await signIn(cluster.url, 'ada@acme.test');
    for (let i = 0; i < 4; i++) assert.equal(await userinfo(cluster.url, accessToken), 200);
  });
});
