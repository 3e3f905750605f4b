/**
 * A throwaway PostgreSQL server: Debian's server binaries from /usr/lib/postgresql/<version>/bin, a
 * cluster in a temp dir, listening on a free loopback port only, removed by `stop()`. As root (CI
 * containers) postgres runs as the `postgres` user: it refuses to run as root. Used by
 * scripts/postgres.mjs (the server suite, the cluster test) and the bench's `cluster` part.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresBin } from './system-deps.mjs';

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

/**
 * Starts the server; resolves with its admin URL (database `postgres`, user `postgres`), the binaries'
 * folder, and `stop()` (fast shutdown, then the temp dir goes). On failure nothing is left running.
 */
export async function startPostgres() {
  const bin = postgresBin();
  if (!bin)
    throw new Error('PostgreSQL server binaries not found: run node scripts/system-deps.mjs postgresql');
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
  const stop = async () => {
    // Fast shutdown (SIGINT), then wait for it so the temp dir can go; SIGKILL after 10 s.
    if (server && server.exitCode === null && server.signalCode === null) {
      await new Promise((resolveStop) => {
        const timer = setTimeout(() => server.kill('SIGKILL'), 10_000);
        server.once('exit', () => {
          clearTimeout(timer);
          resolveStop();
        });
        server.kill('SIGINT');
      });
    }
    rmSync(dir, { recursive: true, force: true });
  };
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
    const logPath = join(dir, 'postgres.log');
    const logFile = openSync(logPath, 'a');
    if (ids.uid !== undefined) chownSync(logPath, ids.uid, ids.gid);
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
      // Its log goes to a file, never a pipe: the test runs that follow block this process (spawnSync),
      // and a pipe nobody drains fills up and stops the server mid-run (its checkpointer waits to log).
      { ...ids, cwd: dir, stdio: ['ignore', 'ignore', logFile] },
    );
    closeSync(logFile);
    const log = () => readFileSync(logPath, 'utf8');

    const deadline = Date.now() + 30_000;
    for (;;) {
      const ready = spawnSync(join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port)]);
      if (ready.status === 0) break;
      if (server.exitCode !== null || Date.now() > deadline)
        throw new Error(`postgres did not start:\n${log()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    return { url: `postgres://postgres:test@127.0.0.1:${port}/postgres`, port, bin, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
