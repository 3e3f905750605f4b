import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import {
  BUSY,
  dataDir,
  DEMO_PASSWORD,
  envNumber,
  freePort,
  rssMb,
  signIn,
  sleep,
  startServer,
  type DataDir,
  type ServerProcess,
} from './support';

/**
 * Mixed traffic for STRESS_LOAD_SECONDS (default 60) at STRESS_CONCURRENCY workers (default 16), each
 * with an account of its own: sign-ins, session checks, userinfo and password changes. Zero 5xx, no
 * busy database reaching a client or the log, and the server's memory flat (RSS growth under
 * STRESS_RSS_MB, default 50 MB, between the end of a warm-up and the end of the run).
 */
const SECONDS = envNumber('STRESS_LOAD_SECONDS', 60);
const CONCURRENCY = envNumber('STRESS_CONCURRENCY', 16);
const RSS_LIMIT_MB = envNumber('STRESS_RSS_MB', 50);

type Kind = 'login' | 'check' | 'userinfo' | 'password';
/** A sign-in mix weighted towards the cheap calls, as a portal's traffic is. */
const MIX: Kind[] = ['login', 'check', 'check', 'userinfo', 'userinfo', 'userinfo', 'check', 'password'];

let data: DataDir;
let server: ServerProcess;
before(async () => {
  data = await dataDir(CONCURRENCY);
  server = await startServer(data.dir, await freePort());
});
after(async () => {
  if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
  await data.cleanUp();
});

it(
  `serves ${SECONDS} s of mixed traffic without 5xx, busy errors or memory growth`,
  { timeout: 600_000 + SECONDS * 2000 },
  async () => {
    // All at once: the server hashes as many as it has slots for and queues the rest.
    const clients = await Promise.all(data.users.map((email) => signIn(server.url, email, DEMO_PASSWORD)));

    const counts = new Map<string, number>();
    const problems: string[] = [];
    const count = (kind: Kind, status: number | string) => {
      const key = `${kind} ${status}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    };

    let stop = false;
    const passwords = clients.map(() => DEMO_PASSWORD);
    const worker = async (index: number) => {
      const email = data.users[index]!;
      const client = clients[index]!;
      for (let op = index; !stop; op++) {
        const password = passwords[index]!;
        const kind = MIX[op % MIX.length]!;
        let response: Response;
        const next = password === DEMO_PASSWORD ? `load password ${index}` : DEMO_PASSWORD;
        try {
          if (kind === 'login') {
            response = await fetch(`${server.url}/account/login`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ teamName: 'acme', email, password }),
            });
          } else if (kind === 'check') {
            response = await fetch(`${server.url}/account/check`, {
              method: 'POST',
              headers: { cookie: client.cookie, 'x-xsrf-token': client.xsrf },
            });
          } else if (kind === 'userinfo') {
            response = await fetch(`${server.url}/connect/userinfo`, {
              headers: { authorization: `Bearer ${client.accessToken}` },
            });
          } else {
            response = await fetch(`${server.url}/api/user/password`, {
              method: 'POST',
              headers: { authorization: `Bearer ${client.accessToken}`, 'content-type': 'application/json' },
              body: JSON.stringify({ oldPassword: password, newPassword: next, confirmNewPassword: next }),
            });
          }
        } catch (error) {
          count(kind, 'error');
          problems.push(`${kind}: ${String(error)}`);
          continue;
        }
        const body = await response.text();
        count(kind, response.status);
        if (response.status === 200 && kind === 'password') passwords[index] = next;
        if (response.status >= 500 || BUSY.test(body)) problems.push(`${kind} ${response.status}: ${body}`);
        else if (response.status !== 200) problems.push(`${kind} ${response.status}: ${body}`);
        else if (kind === 'check' && !body.includes('"authenticated":true')) problems.push(`check: ${body}`);
      }
    };

    const run = async (ms: number) => {
      stop = false;
      const workers = Array.from({ length: CONCURRENCY }, (_, i) => worker(i));
      // Pacing, not waiting: the load lasts this long.
      await sleep(ms);
      stop = true;
      await Promise.all(workers);
    };
    // Memory is sampled at rest, once the requests in flight are done: a sign-in's scrypt alone holds
    // 128 MB while it runs, which would swamp any leak in a sample taken under load.
    const started = Date.now();
    const warmUp = Math.min(10_000, SECONDS * 200);
    await run(warmUp);
    const rssStart = rssMb(server.child.pid!);
    await run(SECONDS * 1000 - warmUp);
    const rssEnd = rssMb(server.child.pid!);
    const elapsed = (Date.now() - started) / 1000;

    const log = server.output();
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    const summary = [...counts.entries()]
      .sort()
      .map(([key, n]) => `${key}: ${n}`)
      .join(', ');
    console.log(
      `load: ${total} requests in ${elapsed.toFixed(1)} s (${(total / elapsed).toFixed(1)}/s) at concurrency ${CONCURRENCY}; ` +
        `${summary}; RSS ${rssStart.toFixed(1)} MB after warm-up → ${rssEnd.toFixed(1)} MB at the end`,
    );
    assert.deepEqual(problems.slice(0, 10), [], `${problems.length} unexpected answers`);
    assert.doesNotMatch(log, BUSY, 'a busy database in the server log');
    assert.ok(
      rssEnd - rssStart < RSS_LIMIT_MB,
      `RSS grew ${(rssEnd - rssStart).toFixed(1)} MB (limit ${RSS_LIMIT_MB})`,
    );
    for (const kind of new Set(MIX)) assert.ok(counts.get(`${kind} 200`), `no successful ${kind}`);
  },
);
