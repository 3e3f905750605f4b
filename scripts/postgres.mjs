/**
 * Runs a node:test folder against a real PostgreSQL (design §4: the scale-out path runs the same
 * queries): a throwaway server (scripts/pg-server.mjs), removed afterwards. Each test app then creates
 * its own database from DATABASE_URL (test/support/test-server.ts, TEST_POSTGRES=1); the cluster test
 * (test/cluster) starts its nodes on a database of its own there.
 * Usage: node scripts/postgres.mjs [folder=test/server] [more node --test flags]
 * (`npm run test:postgres` and `npm run test:cluster` first install the binaries if missing:
 * scripts/system-deps.mjs.)
 */
import { spawnSync } from 'node:child_process';
import { startPostgres } from './pg-server.mjs';

const [folder = 'test/server', ...flags] = process.argv.slice(2);

let status;
let postgres = null;
try {
  postgres = await startPostgres();
  console.log(
    `--- PostgreSQL ${postgres.bin.split('/').at(-2)} on 127.0.0.1:${postgres.port}; running ${folder}`,
  );
  const run = spawnSync(process.execPath, ['scripts/node-tests.mjs', folder, ...flags], {
    stdio: 'inherit',
    env: { ...process.env, TEST_POSTGRES: '1', DATABASE_URL: postgres.url },
  });
  status = run.status ?? 1;
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  status = 1;
} finally {
  await postgres?.stop();
}
process.exit(status);
