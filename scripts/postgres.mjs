/**
 * Runs the server test suite against a real PostgreSQL (design §4: the scale-out path runs the same
 * queries): Debian's server binaries from /usr/lib/postgresql/<version>/bin, a throwaway cluster in a
 * temp dir, listening on a free loopback port only, removed afterwards. Each test app then creates its own
 * database from DATABASE_URL (test/support/test-server.ts, TEST_POSTGRES=1).
 * Usage: node scripts/postgres.mjs [folder=test/server] [more node --test flags]
 * (`npm run test:postgres` first installs the server binaries if missing: scripts/system-deps.mjs.)
 * As root (CI containers) postgres runs as the `postgres` user: it refuses to run as root.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresBin } from './system-deps.mjs';

function findBin() {
  const bin = postgresBin();
  if (!bin) {
    console.error('PostgreSQL server binaries not found: run node scripts/system-deps.mjs postgresql');
    process.exit(1);
  }
  return bin;
}

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

const [folder = 'test/server', ...flags] = process.argv.slice(2);
const bin = findBin();
const dir = mkdtempSync(join(tmpdir(), 'acct-pg-'));
const data = join(dir, 'data');

// Who runs postgres: ourselves, or the `postgres` user when we are root.
let ids = {};
if (process.getuid?.() === 0) {
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  chownSync(dir, uid, gid);
  ids = { uid, gid };
}

let server = null;
function cleanUp() {
  if (server && server.exitCode === null) server.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}

let status;
try {
  const pwfile = join(dir, 'pw');
  writeFileSync(pwfile, 'test\n');
  if (ids.uid !== undefined) chownSync(pwfile, ids.uid, ids.gid);
  const init = spawnSync(
    join(bin, 'initdb'),
    ['-D', data, '-U', 'postgres', '--pwfile', pwfile, '--auth=scram-sha-256', '-E', 'UTF8', '--no-sync'],
    { ...ids, cwd: dir, encoding: 'utf8' },
  );
  if (init.status !== 0) throw new Error(`initdb failed:\n${init.stdout}\n${init.stderr}`);

  const port = await freePort();
  // Loopback TCP only, the socket in our temp dir; fsync off: the cluster is thrown away.
  server = spawn(
    join(bin, 'postgres'),
    [
      '-D',
      data,
      '-p',
      String(port),
      '-k',
      dir,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=200',
    ],
    { ...ids, cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  server.stderr.on('data', (chunk) => (log += chunk));

  const deadline = Date.now() + 30_000;
  for (;;) {
    const ready = spawnSync(join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port)]);
    if (ready.status === 0) break;
    if (server.exitCode !== null || Date.now() > deadline) throw new Error(`postgres did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const url = `postgres://postgres:test@127.0.0.1:${port}/postgres`;
  console.log(`--- PostgreSQL ${bin.split('/').at(-2)} on 127.0.0.1:${port}; running ${folder}`);

  const run = spawnSync(process.execPath, ['scripts/node-tests.mjs', folder, ...flags], {
    stdio: 'inherit',
    env: { ...process.env, TEST_POSTGRES: '1', DATABASE_URL: url },
  });
  status = run.status ?? 1;

  // Fast shutdown (SIGINT), then wait for it so the temp dir can go.
  await new Promise((resolveStop) => {
    if (server.exitCode !== null) return resolveStop();
    server.once('exit', resolveStop);
    server.kill('SIGINT');
  });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  status = 1;
} finally {
  cleanUp();
}
process.exit(status);
