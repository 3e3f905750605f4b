import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, it } from 'node:test';
import {
  dataDir,
  DEMO_PASSWORD,
  freePort,
  signIn,
  sleep,
  startServer,
  type DataDir,
  type ServerProcess,
} from './support';

/**
 * Design §4, graceful shutdown: on SIGTERM the requests in flight finish (sign-ins, which hash, are the
 * slow ones), new connections are refused cleanly (connection refused, or 503 on a kept-alive one), and
 * the process exits with 0 within 15 s.
 */
const SLOW = 4;
const FAST = 10;

let data: DataDir;
let server: ServerProcess;
before(async () => {
  data = await dataDir(SLOW);
});
after(async () => {
  if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
  await data.cleanUp();
});

const outcome = (response: Response) => response.status;
const failure = (error: Error) =>
  String((error.cause as NodeJS.ErrnoException | undefined)?.code ?? error.message);

/** One request on a connection of its own: the outcome a new client would see. */
function probe(url: string, id: number): Promise<string> {
  return new Promise((resolveProbe) => {
    const req = request(`${url}/healthz?probe=${id}`, { agent: false, timeout: 5_000 }, (response) => {
      response.resume();
      response.on('end', () => resolveProbe(String(response.statusCode)));
      response.on('error', (error: NodeJS.ErrnoException) => resolveProbe(error.code ?? error.message));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolveProbe(error.code ?? error.message));
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.end();
  });
}

it(
  'finishes in-flight requests, refuses new ones and exits 0 within 15 s on SIGTERM',
  { timeout: 180_000 },
  async () => {
    // Request logging shows when every slow request has reached the server.
    server = await startServer(data.dir, await freePort(), { LOG_LEVEL: 'info' });
    const reader = await signIn(server.url, data.users[0]!, DEMO_PASSWORD);
    const logins = data.users.map((email) =>
      fetch(`${server.url}/account/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ teamName: 'acme', email, password: DEMO_PASSWORD }),
      }).then(outcome, failure),
    );
    const reads = Array.from({ length: FAST }, () =>
      fetch(`${server.url}/connect/userinfo`, {
        headers: { authorization: `Bearer ${reader.accessToken}` },
      }).then(outcome, failure),
    );
    const arrived = () =>
      server
        .output()
        .split('\n')
        .filter((l) => l.includes('"url":"/account/login"')).length;
    // The reader's own sign-in is one of them.
    await server.outputPasses(() => arrived() >= SLOW + 1, 'the sign-ins did not reach the server');

    const signalled = Date.now();
    server.child.kill('SIGTERM');
    await server.outputPasses((output) => output.includes('SIGTERM: shutting down'), 'no shutdown began');
    const probes: string[] = [];
    while (server.child.exitCode === null && probes.length < 200) {
      probes.push(await probe(server.url, probes.length));
      // Pacing, not waiting: new clients keep arriving, a few every 0.1 s, all through the shutdown.
      await sleep(20);
    }
    const { code } = await server.exited;
    const seconds = (Date.now() - signalled) / 1000;

    assert.deepEqual(
      await Promise.all(logins),
      Array<number>(SLOW).fill(200),
      server
        .output()
        .split('\n')
        .filter((l) => !l.includes('incoming'))
        .slice(-12)
        .join('\n'),
    );
    assert.deepEqual(await Promise.all(reads), Array<number>(FAST).fill(200), 'in-flight reads finish');
    assert.equal(code, 0, server.output().split('\n').slice(-10).join('\n'));
    assert.ok(seconds < 15, `exit took ${seconds} s`);
    // A connection the kernel had queued, or the server had accepted but not yet read, when the
    // listener closed is reset: refused too, as long as its request never reached the server.
    const reached = (id: number) => server.output().includes(`"url":"/healthz?probe=${id}"`);
    const unclean = probes.filter(
      (p, id) => p !== 'ECONNREFUSED' && p !== '503' && !(p === 'ECONNRESET' && !reached(id)),
    );
    assert.deepEqual(unclean, [], `new connections: ${probes.join(', ')}`);
    console.log(
      `SIGTERM: ${SLOW} sign-ins and ${FAST} reads in flight all answered 200; exit 0 after ${seconds.toFixed(2)} s; ` +
        `${probes.length} new connections meanwhile: ${[...new Set(probes)].join(', ')}`,
    );
  },
);
